package io.worldflow.world.local.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.jdbc.LogRowTamper;
import io.worldflow.world.local.LocalWorldProvider;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
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

    /** The database file's bytes and its write-ahead log's, which holds what was written since the last checkpoint. */
    @Override
    protected String storedText(String storageId) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String suffix : new String[] {".db", ".db-wal"}) {
            Path file = dir.resolve(storageId + suffix);
            if (Files.exists(file)) {
                out.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
            }
        }
        return out.toString();
    }

    /** In the closed database file, with SQLite's own driver. */
    @Override
    protected void tamper(String storageId, String runId, Tamper how, long seq) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(storageId + ".db"))) {
            new LogRowTamper(c, "runs", "event_log").apply(how.name(), runId, seq);
        }
    }
}
