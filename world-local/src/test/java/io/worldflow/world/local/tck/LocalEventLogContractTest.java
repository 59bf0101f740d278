package io.worldflow.world.local.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.EventLogContract;
import io.worldflow.world.local.LocalWorldProvider;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class LocalEventLogContractTest extends EventLogContract {

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

    /** A local world's file belongs to one open world at a time (see {@link LocalWorldProvider}). */
    @Override
    protected boolean supportsSharedStorage() {
        return false;
    }
}
