package io.worldflow.world.local.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.local.LocalWorldProvider;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

/** The conformance kit on the local world: one SQLite file per storage id, in one folder for the whole kit. */
class LocalConformanceTest extends WorldConformanceKit {

    @TempDir
    static Path dir;

    @Override
    protected WorldProvider provider() {
        return new LocalWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return WorldConfig.of(Map.of(
                "worldflow.local.path",
                dir.resolve(storageId + ".db").toString(),
                "worldflow.local.synchronous",
                "NORMAL"));
    }

    /** A local world's file belongs to one open world at a time (see {@link LocalWorldProvider}). */
    @Override
    protected boolean supportsSharedStorage() {
        return false;
    }

    @Override
    protected boolean leasesAtCreation() {
        return true;
    }
}
