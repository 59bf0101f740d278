package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.WorldMigration;
import io.worldflow.runtime.Worldflow;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs started on the local world move to Postgres with their histories and finish there. */
@Timeout(120)
class MoveRunsTest {

    @TempDir
    Path dir;

    static final Workflow<String, String> RENEWAL = Workflow.define("renewal.monthly", String.class, (ctx, who) -> {
        String charged = ctx.step("charge", () -> "charged " + who);
        ctx.sleep("month", Duration.ofDays(30));
        return charged + ", then " + ctx.step("renew", () -> "renewed " + who);
    });

    @Test
    void runsStartedLocallyMoveToPostgresAndFinishThere() throws Exception {
        String db = dir.resolve("dev.db").toString();
        ManualClock clock = ManualClock.start();
        List<Event> before;
        try (Worldflow local = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", db)
                .register(RENEWAL)
                .build()) {
            local.startWorker();
            RunHandle<String> run = local.start(RENEWAL, "ana", StartOptions.id("renewal-ana"));
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (run.status() != RunStatus.SLEEPING && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            before = local.events("renewal-ana");
        }
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            Map<String, String> postgres = Map.of(
                    "worldflow.world", "postgres",
                    "worldflow.postgres.url", "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                    "worldflow.postgres.user", "postgres");

            WorldMigration.Report report = MoveRuns.move(db, postgres);

            assertThat(report.copied()).isEqualTo(1);
            assertThat(report.refused()).isEmpty();
            assertThat(MoveRuns.move(db, postgres).alreadyThere())
                    .as("moved once")
                    .isEqualTo(1);
            try (Worldflow moved = Worldflow.builder()
                    .clock(clock)
                    .properties(postgres)
                    .register(RENEWAL)
                    .build()) {
                assertThat(moved.events("renewal-ana")).isEqualTo(before);
                moved.startWorker();
                clock.advance(Duration.ofDays(30));
                assertThat(moved.handle("renewal-ana", String.class).result(Duration.ofSeconds(20)))
                        .isEqualTo("charged ana, then renewed ana");
                assertThat(moved.events("renewal-ana"))
                        .filteredOn(e -> e instanceof io.worldflow.event.StepStarted)
                        .as("the charge is not made again in the new world")
                        .hasSize(2);
            }
        }
    }
}
