package io.worldflow.examples;

import io.worldflow.RunStatus;
import io.worldflow.ScheduleInfo;
import io.worldflow.Workflow;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class NightlyReportTest {

    @TempDir
    Path tmp;

    @Test
    void theReportRunsAtTwoInTheMorningBerlinTimeOncePerNightAcrossTheClockChange() throws InterruptedException {
        // the night the clocks go back in Berlin (2026-10-25), and the one after
        ManualClock clock = new ManualClock(Instant.parse("2026-10-24T12:00:00Z"));
        Workflow<String, String> report = NightlyReport.workflow(day -> 7);
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/nightly.db")
                .register(report)
                .schedule(NightlyReport.nightly(report))
                .build()) {
            wf.startWorker();
            ScheduleInfo info = wf.schedules().describe("nightly-report");
            assertThat(info.upcoming())
                    .as("02:00 happens twice the night the clocks go back; Quartz fires the second, in CET")
                    .startsWith(Instant.parse("2026-10-25T01:00:00Z"), Instant.parse("2026-10-26T01:00:00Z"));

            clock.set(Instant.parse("2026-10-25T01:01:00Z")); // past 02:00 CET and the jitter of up to 30 s
            String first = "nightly-report@2026-10-25T01:00:00Z";
            await(wf, first, clock);
            clock.set(Instant.parse("2026-10-26T01:01:00Z")); // 02:00 CET
            String secondNight = "nightly-report@2026-10-26T01:00:00Z";
            await(wf, secondNight, clock);

            assertThat(wf.handle(first, String.class).result(Duration.ofSeconds(10)))
                    .startsWith("emea sold 7 on ");
            assertThat(((WorkflowStarted) wf.events(secondNight).getFirst()).schedule())
                    .isEqualTo("nightly-report");
            assertThat(wf.schedules().list()).hasSize(1);
        }
    }

    private static void await(Worldflow wf, String runId, ManualClock clock) throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            if (wf.run(runId).map(r -> r.status() == RunStatus.COMPLETED).orElse(false)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(runId + " did not complete by " + clock.instant() + ": " + wf.run(runId));
    }
}
