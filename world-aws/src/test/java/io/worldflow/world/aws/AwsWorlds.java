package io.worldflow.world.aws;

import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import java.util.ArrayList;
import java.util.List;

/** Worlds over the shared emulators, one prefix per test, closed together. */
final class AwsWorlds implements AutoCloseable {

    final JsonCodec codec = new JsonCodec();
    final ManualClock clock = ManualClock.start();
    final String prefix = Emulators.freshPrefix();
    private final List<World> opened = new ArrayList<>();

    WorldConfig config() {
        return Emulators.shared().config(prefix);
    }

    World open() {
        return open(config());
    }

    /** A world of this prefix with {@code shards} index shards and these SDK interceptors; the caller closes it. */
    AwsWorld openSharded(int shards, ExecutionInterceptor... interceptors) {
        return AwsWorld.open(
                new WorldContext(
                        config().with(AwsWorldProvider.INDEX_SHARDS, String.valueOf(shards)),
                        clock,
                        codec.eventCodec()),
                List.of(interceptors));
    }

    World open(WorldConfig config) {
        World w = new AwsWorldProvider().create(new WorldContext(config, clock, codec.eventCodec()));
        opened.add(w);
        return w;
    }

    @Override
    public void close() {
        opened.forEach(World::close);
    }
}
