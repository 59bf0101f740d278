package io.worldflow.world.local.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.TaskQueueContract;
import io.worldflow.world.local.LocalWorldProvider;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class LocalTaskQueueContractTest extends TaskQueueContract {

    @TempDir
    static Path dir;

    @Override
    protected WorldProvider provider() {
        return new LocalWorldProvider();
    }

    @Override
    protected boolean leasesAtCreation() {
        return true;
    }

    @Override
    protected WorldConfig config(String storageId) {
        return LocalTck.config(dir, storageId);
    }
}
