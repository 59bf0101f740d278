package io.worldflow.world.postgres.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.world.postgres.TestPostgres;
import org.junit.jupiter.api.AfterAll;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The conformance kit on the Postgres world, on the tests' shared server (embedded, or the developer's). */
class PgConformanceTest extends PgConformance {

    private static final Set<String> SCHEMAS = ConcurrentHashMap.newKeySet();

    @Override
    protected TestPostgres server() {
        return TestPostgres.shared();
    }

    @Override
    protected WorldConfig config(String storageId) {
        SCHEMAS.add(schema(storageId));
        return super.config(storageId);
    }

    /** On a server of the developer's, the schemas the kit made are dropped; an embedded one goes anyway. */
    @AfterAll
    static void dropSchemas() {
        if (!TestPostgres.shared().isEmbedded()) {
            TestPostgres.shared().dropSchemas(SCHEMAS);
        }
        SCHEMAS.clear();
    }
}
