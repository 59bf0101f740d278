package io.worldflow.world.postgres.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.TaskQueueContract;
import io.worldflow.world.postgres.PostgresWorldProvider;
import org.junit.jupiter.api.AfterAll;

class PgTaskQueueContractTest extends TaskQueueContract {

    @Override
    protected WorldProvider provider() {
        return new PostgresWorldProvider();
    }

    @Override
    protected boolean leasesAtCreation() {
        return true;
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
