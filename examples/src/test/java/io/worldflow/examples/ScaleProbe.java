package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Measures the scale figures of BENCHMARKS.md on the local world (synchronous=FULL): a 100-step and a
 * 1,000-step sequential workflow (submit → result), and resuming a run with a 10,000-event history
 * (lease → read → decode → replay → finish). Prints medians and ranges; asserts nothing about time.
 *
 * <pre>./mvnw -q -pl examples -am test-compile exec:java -Dexec.classpathScope=test
 *     -Dexec.mainClass=io.worldflow.examples.ScaleProbe</pre>
 */
public final class ScaleProbe {

    static final Workflow<Integer, Integer> STEPS = Workflow.define("probe.steps", Integer.class, (ctx, n) -> {
        int last = 0;
        for (int i = 0; i < n; i++) {
            int v = i;
            last = ctx.step("s", () -> v);
        }
        return last;
    });

    static final Workflow<Integer, Integer> LONG_HISTORY = Workflow.define("probe.history", Integer.class, (ctx, n) -> {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            int v = i;
            sum += ctx.step("s", () -> v);
        }
        ctx.sleep("nap", Duration.ofHours(1));
        return sum;
    });

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("worldflow-probe");
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", dir.resolve("steps.db").toString())
                .register(STEPS)
                .build()) {
            wf.startWorker();
            time(wf, 100, 3); // warm-up
            time(wf, 1000, 1);
            report("100-step workflow", time(wf, 100, repeats));
            report("1,000-step workflow", time(wf, 1000, repeats));
        }
        List<Double> replay = new ArrayList<>();
        for (int r = 0; r < repeats + 1; r++) {
            replay.add(replayOnce(dir.resolve("history-" + r + ".db")));
        }
        replay.removeFirst(); // warm-up
        report("resume of a 10,000-event history", replay);
    }

    private static List<Double> time(Worldflow wf, int steps, int times) {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            RunHandle<Integer> run = wf.start(STEPS, steps);
            run.result(Duration.ofMinutes(5));
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        return ms;
    }

    /** Builds a run with 3,333 steps (10,003 events) that then sleeps; a new worker resumes it. */
    private static double replayOnce(Path db) {
        ManualClock clock = ManualClock.start();
        String runId;
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", db.toString())
                .register(LONG_HISTORY)
                .build()) {
            wf.startWorker();
            RunHandle<Integer> run = wf.start(LONG_HISTORY, 3333);
            runId = run.id();
            while (run.status() != RunStatus.SLEEPING) {
                Thread.onSpinWait();
            }
            if (wf.events(runId).size() < 10_000) {
                throw new IllegalStateException(
                        "history too short: " + wf.events(runId).size());
            }
        }
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", db.toString())
                .register(LONG_HISTORY)
                .build()) {
            wf.startWorker();
            RunHandle<Integer> run = wf.handle(runId, Integer.class);
            long t0 = System.nanoTime();
            clock.advance(Duration.ofHours(1));
            run.result(Duration.ofMinutes(1));
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    private static void report(String what, List<Double> ms) {
        List<Double> sorted = new ArrayList<>(ms);
        Collections.sort(sorted);
        System.out.printf(
                "%-36s median %8.1f ms  range %.1f–%.1f ms  (n=%d)%n",
                what, sorted.get(sorted.size() / 2), sorted.getFirst(), sorted.getLast(), sorted.size());
    }
}
