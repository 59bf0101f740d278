package io.worldflow.examples;

import io.worldflow.ChainReport;
import io.worldflow.RunHandle;
import io.worldflow.RunQuery;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AuditTrailTest {

    @TempDir
    Path dir;

    @Test
    void theNightlyAuditFindsTheRefundSomeoneRewroteInTheDatabaseAndTheArchiveStillProvesTheOriginal()
            throws Exception {
        Workflow<AuditTrail.Refund, String> refund = AuditTrail.workflow();
        Path db = dir.resolve("refunds.db");
        Path archive = Files.createDirectory(dir.resolve("archive"));
        Instant since = Instant.now().minusSeconds(60);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .register(refund)
                .build()) {
            wf.startWorker();
            RunHandle<String> small = wf.start(refund, new AuditTrail.Refund("o-1", 1_250), StartOptions.id("r-1"));
            RunHandle<String> large = wf.start(refund, new AuditTrail.Refund("o-2", 99_000), StartOptions.id("r-2"));
            wf.signal("r-1", "approval", "approved by ana");
            wf.signal("r-2", "approval", "approved by bob");
            assertThat(small.result(Duration.ofSeconds(30))).isEqualTo("refunded 1250 on o-1");
            assertThat(large.result(Duration.ofSeconds(30))).isEqualTo("refunded 99000 on o-2");

            assertThat(AuditTrail.audit(wf, since, archive))
                    .as("nothing broken yet")
                    .isEmpty();
            assertThat(archive.resolve("r-2.json")).isRegularFile();

            // someone with the database makes the large refund look approved by another person
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                    PreparedStatement ps = c.prepareStatement("UPDATE event_log SET events ="
                            + " replace(events, 'approved by bob', 'approved by eve')"
                            + " WHERE run_id = 'r-2' AND events LIKE '%approved by bob%'")) {
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }

            List<ChainReport> broken = AuditTrail.audit(wf, since, Files.createDirectory(dir.resolve("next")));
            assertThat(broken).extracting(ChainReport::runId).containsExactly("r-2");
            assertThat(broken.getFirst().problem()).contains("does not match its link");
        }
        // last night's archive still holds, and proves what was written
        ChainReport archived = AuditTrail.checkArchived(archive.resolve("r-2.json"));
        assertThat(archived.intact()).isTrue();
        assertThat(Files.readString(archive.resolve("r-2.json"))).contains("approved by bob");
        assertThat(AuditTrail.checkArchived(dir.resolve("next").resolve("r-2.json"))
                        .intact())
                .isFalse();
    }

    @Test
    void theNightlyAuditArchivesEveryFinishedRunNotOnlyTheFirstPage() throws Exception {
        Workflow<Integer, Integer> tick =
                Workflow.define("audit.tick", Integer.class, (ctx, n) -> ctx.step("n", () -> n));
        Path archive = Files.createDirectory(dir.resolve("archive"));
        Instant since = Instant.now().minusSeconds(60);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", dir.resolve("ticks.db").toString())
                .register(tick)
                .build()) {
            wf.startWorker();
            List<RunHandle<Integer>> runs = new java.util.ArrayList<>();
            for (int i = 0; i < RunQuery.all().limit() + 7; i++) {
                runs.add(wf.start(tick, i, StartOptions.id("t-" + i)));
            }
            for (RunHandle<Integer> run : runs) {
                run.result(Duration.ofSeconds(30));
            }
            assertThat(AuditTrail.audit(wf, since, archive)).isEmpty();
        }
        try (var files = Files.list(archive)) {
            assertThat(files.count()).isEqualTo(RunQuery.all().limit() + 7);
        }
    }
}
