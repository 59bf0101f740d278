package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Worlds over fresh schemas of the shared test server, on a manual clock; closed after each test. */
@Timeout(60)
abstract class PgTestSupport {

    static final String QUEUE = "default";

    final JsonCodec codec = new JsonCodec();
    final ManualClock clock = ManualClock.start();
    private final List<World> opened = new ArrayList<>();
    private final List<String> schemas = new ArrayList<>();

    @AfterEach
    void closeWorlds() {
        opened.forEach(World::close);
        if (!TestPostgres.shared().isEmbedded()) {
            TestPostgres.shared().dropSchemas(schemas);
        }
    }

    /** A schema name no other test uses. */
    String freshSchema() {
        String schema = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        schemas.add(schema);
        return schema;
    }

    WorldConfig config(String schema) {
        return TestPostgres.shared().config(schema);
    }

    World open(WorldConfig config) {
        return open(config, clock);
    }

    World open(WorldConfig config, InstantSource clockToUse) {
        World world = new PostgresWorldProvider().create(new WorldContext(config, clockToUse, codec.eventCodec()));
        opened.add(world);
        return world;
    }

    NewRun newRun(String runId) {
        return new NewRun(
                runId, "wf", new Payload("{\"n\":1}", "com.acme.In"), clock.instant(), clock.instant(), null, QUEUE, 0);
    }
}
