package io.worldflow.world.local.tck;

import io.worldflow.spi.WorldConfig;

import java.nio.file.Path;
import java.util.Map;

/** How the conformance kit reaches fresh local storage: one SQLite file per storage id. */
final class LocalTck {

    private LocalTck() {
    }

    static WorldConfig config(Path dir, String storageId) {
        return WorldConfig.of(Map.of(
                "worldflow.local.path", dir.resolve(storageId + ".db").toString(),
                "worldflow.local.synchronous", "NORMAL"));
    }
}
