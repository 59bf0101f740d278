package io.worldflow.world.postgres.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.world.postgres.TestPostgres;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How the conformance kit reaches fresh Postgres storage: one schema per storage id. */
final class PgTck {

    private static final List<String> SCHEMAS = new ArrayList<>();

    private PgTck() {
    }

    static synchronized WorldConfig config(String storageId) {
        String schema = storageId.toLowerCase(Locale.ROOT);
        if (!SCHEMAS.contains(schema)) {
            SCHEMAS.add(schema);
        }
        return TestPostgres.shared().config(schema);
    }

    /** On a server of the developer's, the schemas the tests made are dropped; an embedded one goes anyway. */
    static synchronized void cleanUp() {
        if (!TestPostgres.shared().isEmbedded()) {
            TestPostgres.shared().dropSchemas(SCHEMAS);
        }
        SCHEMAS.clear();
    }
}
