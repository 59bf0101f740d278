package io.worldflow.world.local;

import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.tck.StoredFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A file written by an earlier version (schema version 5) opens, migrates and reads back unchanged. */
class StoredFixturesTest {

    @TempDir
    Path dir;

    @Test
    void aFileOfSchemaVersion5ReadsBackAsItsVersionExportedIt() throws Exception {
        Path file = dir.resolve("schema5.db");
        try (InputStream in = getClass().getResourceAsStream("/fixtures/schema5.db")) {
            Files.copy(in, file);
        }
        World world = new LocalWorldProvider()
                .create(new WorldContext(
                        WorldConfig.of(Map.of(LocalWorldProvider.PATH, file.toString())),
                        ManualClock.start(),
                        new JsonCodec().eventCodec()));
        try {
            StoredFixtures.assertTimelinesReadBack(
                    world, getClass().getResourceAsStream("/fixtures/local-timelines.json"));
        } finally {
            world.close();
        }
        assertThat(file).isRegularFile();
    }
}
