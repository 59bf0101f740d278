package io.worldflow.examples;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README demo, unchanged, on the Postgres world: only configuration differs (here system
 * properties; the environment or worldflow.properties work the same). Uses the database named by
 * {@code WORLDFLOW_TEST_POSTGRES_URL}, or an embedded PostgreSQL with fsync on.
 */
class DemoOnPostgresTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void theDemoRunsOnPostgresByConfigurationAlone() throws Exception {
        String external = System.getenv("WORLDFLOW_TEST_POSTGRES_URL");
        EmbeddedPostgres pg = external == null || external.isBlank()
                ? EmbeddedPostgres.builder().setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on").start()
                : null;
        try {
            String url = pg != null ? "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres" : external.strip();
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> cmd = List.of(java,
                    "-Dworldflow.world=postgres",
                    "-Dworldflow.dashboard.port=0",
                    "-Dworldflow.postgres.url=" + url,
                    "-Dworldflow.postgres.user=" + (pg != null ? "postgres" : ""),
                    "-Dworldflow.postgres.schema=demo_" + ProcessHandle.current().pid(),
                    "-cp", System.getProperty("java.class.path"),
                    OrderFulfilmentMain.class.getName(), "--orders", "5", "--cool-off", "300");
            Path out = dir.resolve("demo.out");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
            String printed = Files.readString(out);
            assertThat(p.exitValue()).as(printed).isZero();
            assertThat(printed).contains("world 'postgres'").contains("COMPLETED=5").contains("event timeline of order-")
                    .contains("SignalReceived").contains("labels/2/label");
        } finally {
            if (pg != null) {
                pg.close();
            }
        }
    }
}
