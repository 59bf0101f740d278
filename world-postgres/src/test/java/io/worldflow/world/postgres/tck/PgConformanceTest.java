package io.worldflow.world.postgres.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.postgres.PostgresWorldProvider;
import io.worldflow.world.postgres.TestPostgres;
import org.junit.jupiter.api.AfterAll;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The conformance kit on the Postgres world: one schema per storage id, on the tests' shared server. */
class PgConformanceTest extends WorldConformanceKit {

    private static final Set<String> SCHEMAS = ConcurrentHashMap.newKeySet();

    @Override
    protected WorldProvider provider() {
        return new PostgresWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        String schema = storageId.toLowerCase(Locale.ROOT);
        SCHEMAS.add(schema);
        return TestPostgres.shared().config(schema);
    }

    @Override
    protected boolean leasesAtCreation() {
        return true;
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
