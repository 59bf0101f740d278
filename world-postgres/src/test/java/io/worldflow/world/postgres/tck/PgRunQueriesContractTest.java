package io.worldflow.world.postgres.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.RunQueriesContract;
import io.worldflow.world.postgres.PostgresWorldProvider;
import org.junit.jupiter.api.AfterAll;

class PgRunQueriesContractTest extends RunQueriesContract {

    @Override
    protected WorldProvider provider() {
        return new PostgresWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return PgTck.config(storageId);
    }

    @AfterAll
    static void cleanUp() {
        PgTck.cleanUp();
    }
}
