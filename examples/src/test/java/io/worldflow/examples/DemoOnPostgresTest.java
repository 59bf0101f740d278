package io.worldflow.examples;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
                ? EmbeddedPostgres.builder()
                        .setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .start()
                : null;
        try {
            String url = pg != null ? "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres" : external.strip();
            List<String> cmd = ChildJvm.command(
                    List.of(
                            "-Dworldflow.world=postgres",
                            "-Dworldflow.dashboard.port=0",
                            "-Dworldflow.postgres.url=" + url,
                            "-Dworldflow.postgres.user=" + (pg != null ? "postgres" : ""),
                            "-Dworldflow.postgres.schema=demo_"
                                    + ProcessHandle.current().pid()),
                    OrderFulfilmentMain.class,
                    List.of("--orders", "5", "--cool-off", "300"));
            ChildJvm.Result r = ChildJvm.run(cmd, dir.resolve("demo.out"), Duration.ofSeconds(150));
            String printed = r.output();
            assertThat(r.exitValue()).as(printed).isZero();
            assertThat(printed)
                    .contains("world 'postgres'")
                    .contains("COMPLETED=5")
                    .contains("event timeline of order-")
                    .contains("SignalReceived")
                    .contains("labels/2/label");
        } finally {
            if (pg != null) {
                pg.close();
            }
        }
    }
}
