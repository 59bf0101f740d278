package io.worldflow.world.local.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.RunProjectionContract;
import io.worldflow.world.local.LocalWorldProvider;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class LocalRunProjectionContractTest extends RunProjectionContract {

    @TempDir
    static Path dir;

    @Override
    protected WorldProvider provider() {
        return new LocalWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return LocalTck.config(dir, storageId);
    }
}
