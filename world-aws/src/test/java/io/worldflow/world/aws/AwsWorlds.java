package io.worldflow.world.aws;

import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;

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
