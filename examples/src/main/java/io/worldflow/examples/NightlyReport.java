package io.worldflow.examples;

import io.worldflow.OverlapPolicy;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * A report that runs every night at 02:00 Berlin time, declared with the application: every worker that starts with
 * this declaration keeps the one schedule, and each night starts one run however many workers are up.
 */
public final class NightlyReport {

    /** Where the numbers come from. */
    public interface Sales {
        long totalFor(LocalDate day);
    }

    private NightlyReport() {}

    public static Workflow<String, String> workflow(Sales sales) {
        return Workflow.define("report.nightly", String.class, (ctx, region) -> {
            // the day before the run's fire time, read once and recorded: a replay reads the same day
            LocalDate day = ctx.step(
                    "day", () -> LocalDate.now(ZoneId.of("Europe/Berlin")).minusDays(1));
            long total = ctx.step("total", () -> sales.totalFor(day));
            return region + " sold " + total + " on " + day;
        });
    }

    // tag::schedule[]
    public static ScheduleSpec nightly(Workflow<String, String> report) {
        return ScheduleSpec.cron("nightly-report", "0 0 2 * * ?", report, "emea") // Quartz syntax: sec min hour …
                .inZone("Europe/Berlin") // 02:00 in Berlin, daylight saving included
                .withOverlap(OverlapPolicy.SKIP) // a night still running when the next begins: skip the next
                .withJitter(Duration.ofSeconds(30)); // spread the runs of many schedules a little
    }
    // end::schedule[]

    /** Declares the schedule, shows its next fire times, and triggers one run now. */
    public static void main(String[] args) {
        Workflow<String, String> report = workflow(day -> 1_234);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "nightly-report.db")
                .register(report)
                .schedule(nightly(report))
                .build()) {
            wf.startWorker();
            ScheduleInfo info = wf.schedules().describe("nightly-report");
            System.out.println("next fire times: " + info.upcoming());
            String runId = wf.schedules().trigger("nightly-report").orElseThrow();
            System.out.println(wf.handle(runId, String.class).result(Duration.ofSeconds(30)) + " (run " + runId
                    + ", triggered at " + Instant.now() + ")");
        }
    }
}
