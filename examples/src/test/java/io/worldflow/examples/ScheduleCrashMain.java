package io.worldflow.examples;

import io.worldflow.CatchUpPolicy;
import io.worldflow.OverlapPolicy;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A worker with a schedule that fires every second, in a JVM of its own so that a test can kill it with SIGKILL
 * between fires or in the middle of one: {@code ScheduleCrashMain <db> <ledger> <fires>}. Each run's step writes a
 * line to the ledger; the process exits once the schedule has fired {@code fires} times and those runs have ended.
 */
final class ScheduleCrashMain {

    private static volatile Path ledger;

    static final Workflow<String, String> TICK = Workflow.define(
            "crash.tick",
            String.class,
            (ctx, in) -> ctx.step("work", () -> {
                Files.writeString(
                        ledger,
                        "work " + ctx.runId() + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                return in;
            }));

    /** Every fire time starts its run, the missed ones too, however long the worker was away. */
    static final ScheduleSpec EVERY = ScheduleSpec.every("ticks", Duration.ofSeconds(1), TICK, "tick")
            .withOverlap(OverlapPolicy.ALLOW_ALL)
            .withCatchUp(CatchUpPolicy.ALL, Duration.ofMinutes(10));

    private ScheduleCrashMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Path db = Path.of(args[0]);
        ledger = Path.of(args[1]);
        int fires = Integer.parseInt(args[2]);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .register(TICK)
                .schedule(EVERY)
                .build()) {
            wf.startWorker();
            long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < end) {
                ScheduleInfo info = wf.schedules().describe("ticks");
                Instant target =
                        info.createdAt().truncatedTo(ChronoUnit.SECONDS).plusSeconds(fires);
                if (info.lastFireAt() != null && !info.lastFireAt().isBefore(target)) {
                    wf.schedules().pause("ticks");
                    // a fire may have come between the look above and the pause: wait for every run there is now
                    for (RunInfo run : wf.runs(RunQuery.all().withLimit(500)).runs()) {
                        wf.handle(run.runId(), String.class).result(Duration.ofSeconds(30));
                    }
                    System.out.println(
                            "fired through " + wf.schedules().describe("ticks").lastFireAt());
                    return;
                }
                Thread.sleep(50);
            }
            System.out.println("the schedule did not fire " + fires + " times in time");
        }
    }
}
