package io.worldflow.world.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.Payload;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.Tx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.ResultSet;
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

    /**
     * The plan of a lease statement ({@link PgTaskQueue#leaseStatement}) as executed at {@code now} and rolled back:
     * {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)}'s top node.
     */
    static JsonNode leasePlan(Sql lease, String queuesParam, Object queues, long now, int max) throws Exception {
        try (Connection c = TestPostgres.shared().connect()) {
            c.setAutoCommit(false);
            try (Sql.Call call = new Tx(c, null)
                            .call(lease.prefixed("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "))
                            .set(queuesParam, queues)
                            .set("now", now)
                            .set("dueBy", now)
                            .set("max", max)
                            .set("owner", "w")
                            .set("expires", now + 30_000_000L);
                    ResultSet rs = call.query()) {
                rs.next();
                return new ObjectMapper().readTree(rs.getString(1)).get(0).get("Plan");
            } finally {
                c.rollback();
            }
        }
    }

    NewRun newRun(String runId) {
        return new NewRun(
                runId, "wf", new Payload("{\"n\":1}", "com.acme.In"), clock.instant(), clock.instant(), null, QUEUE, 0);
    }
}
