package io.worldflow.bench;

import io.worldflow.RunStatus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The workloads, each on fresh storage with its own worker JVM; each returns its figures by key. */
final class Workloads {

    private static final double MIB = 1024.0 * 1024.0;
    private static final long LONG_WAIT_MS = 30 * 60_000L;

    /** The worker of W2 and W4 notes each run's hops ({@link StageRecorder}). */
    private static final Map<String, String> STAGES = Map.of(StageRecorder.PROPERTY, "true");

    private final Sizes sizes;
    private final Path logDir;
    private final Consumer<String> status;
    private final PacedWorkloads paced;

    Workloads(Sizes sizes, Path logDir, Consumer<String> status) {
        this.sizes = sizes;
        this.logDir = logDir;
        this.status = status;
        this.paced = new PacedWorkloads(sizes, logDir, status);
    }

    Map<String, Double> run(Workload w, Target t) {
        return switch (w) {
            case W1 -> w1(t);
            case W2 -> w2(t);
            case W3 -> w3(t);
            case W4 -> w4(t);
            case W5 -> w5(t);
            case W6 -> w6(t);
            case COST -> cost(t);
            case SCALE -> scale(t);
            case LOOP -> loop(t);
            case W7 -> paced.w7(t);
            case W8 -> paced.w8(t);
            case SEARCH -> new SearchWorkload(sizes, logDir, status).run(t);
        };
    }

    /** W1: enqueue N noop3 runs one call at a time, then start the worker; engine timestamps for the drain. */
    private Map<String, Double> w1(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        try (Session s = new Session(t, "w1", sizes, logDir)) {
            Drain d = drain(s, sizes.w1Runs(), "W1", null);
            f.put("w1.enqueue", d.enqueuePerSecond);
            f.put("w1.throughput", d.throughput);
            f.put("w1.worker_peak_rss", d.measure.peakRssBytes() / MIB);
            f.put("w1.worker_cpu", d.measure.cpuSeconds());
            f.put("w1.worker_gc", d.jvm.gcMs());
            f.put("w1.worker_jit", d.jvm.jitMs());
        }
        return f;
    }

    private record Drain(
            double enqueuePerSecond, double throughput, WorkerProcess.Measure measure, Stages.JvmTimes jvm) {}

    /**
     * Enqueue, then drain with a worker. {@code drained} (when not null) runs once every run completed, after
     * the worker stopped and before the engine's timestamps are read, so that reading them is not counted.
     */
    private Drain drain(Session s, int n, String what, Runnable drained) {
        String wf = BenchWorkflows.NOOP3.name();
        BenchClient driver = s.driver();
        status.accept(what + " enqueue " + n);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            driver.submit(wf, i);
        }
        long t1 = System.nanoTime();
        status.accept(what + " drain " + n);
        WorkerProcess worker = s.startWorker();
        s.awaitCount(wf, RunStatus.COMPLETED, n, LONG_WAIT_MS);
        WorkerProcess.Measure m = worker.measure();
        Stages.JvmTimes jvm = Stages.JvmTimes.of(worker.control());
        if (drained != null) {
            s.stopWorker();
            drained.run();
        }
        BenchClient.Span span = s.client().span(wf);
        if (span.runs() != n) {
            throw new IllegalStateException("expected " + n + " finished runs, the log shows " + span.runs());
        }
        if (drained == null) {
            s.stopWorker();
        }
        return new Drain(n / ((t1 - t0) / 1e9), n / span.seconds(), m, jvm);
    }

    /** W2: idle worker, then runs one at a time, submit → seen completed (the world's push, see {@link Session#awaitRuns}). */
    private Map<String, Double> w2(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        try (Session s = new Session(t, "w2", sizes, logDir)) {
            if (t.shared()) {
                s.driver(); // the driver's client is open before the clock starts
            }
            WorkerProcess worker = s.startWorker(STAGES);
            Session.sleep(sizes.w2IdleMs());
            BenchClient c = s.client();
            Stages.JvmTimes jvm = Stages.JvmTimes.of(worker.control());
            status.accept("W2 " + sizes.w2Runs() + " runs one at a time");
            double[] ms = new double[sizes.w2Runs()];
            List<Stages.Driven> driven = new ArrayList<>();
            for (int i = 0; i < ms.length; i++) {
                long t0 = System.nanoTime();
                long submitAt = BenchWorkflows.epochMicros();
                String id = c.submit(BenchWorkflows.NOOP3.name(), i);
                long submitted = BenchWorkflows.epochMicros();
                s.awaitRuns(List.of(id), 60_000);
                ms[i] = (System.nanoTime() - t0) / 1e6;
                driven.add(new Stages.Driven(id, submitAt, submitted, BenchWorkflows.epochMicros()));
            }
            f.put("w2.p50", Stats.percentile(ms, 50));
            f.put("w2.p99", Stats.percentile(ms, 99));
            f.putAll(Stages.w2(driven, worker.control()));
            f.putAll(jvm.since("w2", worker.control()));
        }
        return f;
    }

    /** W3: a fan-out run three times back to back (first cold), then a batch submitted at once. */
    private Map<String, Double> w3(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        String wf = BenchWorkflows.FANOUT.name();
        try (Session s = new Session(t, "w3", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            s.startWorker();
            BenchClient c = s.client();
            status.accept("W3 fan-out of " + sizes.w3Branches());
            singles(s, c, wf, "w3", f);
            batch(s, c, wf, "w3", f);
        }
        return f;
    }

    /**
     * W5: a parent of as many child runs as W3 has branches, run three times back to back (first cold), then as many
     * parents as W3's batch submitted at once.
     */
    private Map<String, Double> w5(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        String wf = BenchWorkflows.CHILDREN.name();
        try (Session s = new Session(t, "w5", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            s.startWorker();
            BenchClient c = s.client();
            status.accept("W5 parent of " + sizes.w3Branches() + " children");
            singles(s, c, wf, "w5", f);
            batch(s, c, wf, "w5", f);
        }
        return f;
    }

    /**
     * W6: runs waiting in a race of a signal against a one-hour timer, each sent its signal once it waits, one at a
     * time: signal → seen completed, to set beside W2's submit → seen completed.
     */
    private Map<String, Double> w6(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        try (Session s = new Session(t, "w6", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            s.startWorker();
            BenchClient c = s.client();
            status.accept("W6 " + sizes.w4Runs() + " races of a signal against a timer, one at a time");
            double[] ms = new double[sizes.w4Runs()];
            for (int i = 0; i < ms.length; i++) {
                String id = c.submit(BenchWorkflows.RACE.name(), i);
                long until = System.nanoTime() + 60_000_000_000L;
                while (c.status(id) != RunStatus.WAITING) {
                    if (System.nanoTime() > until) {
                        throw new IllegalStateException("W6 run " + id + " did not wait for its signal");
                    }
                    Session.sleep(sizes.runPollMs());
                }
                long t0 = System.nanoTime();
                c.signal(id, "go", i);
                s.awaitRuns(List.of(id), 60_000);
                ms[i] = (System.nanoTime() - t0) / 1e6;
                checkResult(c, id, Integer.toString(i));
            }
            f.put("w6.p50", Stats.percentile(ms, 50));
            f.put("w6.p99", Stats.percentile(ms, 99));
        }
        return f;
    }

    /**
     * LOOP: a chain of runs that continue as new, one step each; when the run that begins the second tenth, the one that
     * begins the last tenth and the last one are seen (looked up every few ms), the first and last tenths' times.
     */
    private Map<String, Double> loop(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        int n = sizes.stepsLarge() * 10;
        int tenth = Math.max(1, n / 10);
        try (Session s = new Session(t, "loop", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            s.startWorker();
            BenchClient c = s.client();
            status.accept("loop: " + n + " runs continuing as new");
            long t0 = System.nanoTime();
            String id = c.submit(BenchWorkflows.LOOP.name(), n);
            long t1 = seen(c, id + "~" + (tenth + 1), null);
            long t2 = seen(c, id + "~" + (n - tenth + 1), null);
            long t3 = seen(c, id + "~" + n, RunStatus.COMPLETED);
            double first = (t1 - t0) / 1e6;
            double last = (t3 - t2) / 1e6;
            f.put("loop.first_tenth", first);
            f.put("loop.last_tenth", last);
            f.put("loop.ratio", last / first);
        }
        return f;
    }

    /** When run {@code id} was first seen to exist (with {@code status}, when given), in nanoTime. */
    private long seen(BenchClient c, String id, RunStatus status) {
        long until = System.nanoTime() + LONG_WAIT_MS * 1_000_000L;
        while (System.nanoTime() < until) {
            try {
                RunStatus now = c.status(id);
                if (status == null || now == status) {
                    return System.nanoTime();
                }
            } catch (RuntimeException notYet) {
                // not created yet
            }
            Session.sleep(sizes.runPollMs());
        }
        throw new IllegalStateException("run " + id + " was not seen" + (status == null ? "" : " " + status));
    }

    /**
     * Runs {@code wf} of the W3 size three times back to back, each awaited before the next: {@code <key>.single_cold}
     * is the first, {@code <key>.single_warm} the mean of the other two.
     */
    private void singles(Session s, BenchClient c, String wf, String key, Map<String, Double> f) {
        double[] single = new double[3];
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            String id = c.submit(wf, sizes.w3Branches());
            s.awaitRuns(List.of(id), 300_000);
            single[i] = (System.nanoTime() - t0) / 1e6;
            checkResult(c, id, Integer.toString(sizes.w3Branches()));
        }
        f.put(key + ".single_cold", single[0]);
        f.put(key + ".single_warm", (single[1] + single[2]) / 2);
    }

    /**
     * Submits {@code wf} of the W3 size as many times as W3's batch, at once: {@code <key>.batch_wall} is the time until
     * every one is seen completed.
     */
    private void batch(Session s, BenchClient c, String wf, String key, Map<String, Double> f) {
        long t0 = System.nanoTime();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < sizes.w3Batch(); i++) {
            ids.add(c.submit(wf, sizes.w3Branches()));
        }
        s.awaitRuns(ids, 300_000);
        double wall = (System.nanoTime() - t0) / 1e6;
        for (String id : ids) {
            checkResult(c, id, Integer.toString(sizes.w3Branches()));
        }
        f.put(key + ".batch_wall", wall);
    }

    /** W4: sleep runs submitted one at a time to a running worker; their own lateness, and the total wall. */
    private Map<String, Double> w4(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        String wf = BenchWorkflows.SLEEP.name();
        try (Session s = new Session(t, "w4", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            WorkerProcess worker = s.startWorker(STAGES);
            BenchClient c = s.client();
            Stages.JvmTimes jvm = Stages.JvmTimes.of(worker.control());
            status.accept("W4 " + sizes.w4Runs() + " sleeps of " + sizes.w4SleepMs() + " ms");
            long t0 = System.nanoTime();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < sizes.w4Runs(); i++) {
                ids.add(c.submit(wf, sizes.w4SleepMs()));
            }
            s.awaitCount(wf, RunStatus.COMPLETED, sizes.w4Runs(), LONG_WAIT_MS);
            double wall = (System.nanoTime() - t0) / 1e9;
            f.putAll(jvm.since("w4", worker.control()));
            double[] late = new double[ids.size()];
            for (int i = 0; i < late.length; i++) {
                late[i] = Double.parseDouble(c.result(ids.get(i)));
            }
            f.put("w4.p50", Stats.percentile(late, 50));
            f.put("w4.p99", Stats.percentile(late, 99));
            f.put("w4.wall", wall);
            f.putAll(Stages.w4(ids, late, worker.control()));
        }
        return f;
    }

    /** Cost per run: an extra W1, with the server's counters before and after, divided by N. */
    private Map<String, Double> cost(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        Target.CostCounters counters = t.costCounters().orElseThrow();
        int n = sizes.costRuns();
        try (Session s = new Session(t, "cost", sizes, logDir)) {
            s.driver(); // creates the schema: not part of the cost
            s.closeDriver();
            Session.sleep(1_000); // backends that exited have published their counters
            Target.Cost c0 = counters.read();
            Target.Cost[] after = new Target.Cost[1];
            // counted: the enqueue, the worker's whole life, the driver's completion counting; not the read of
            // the timestamps afterwards (the worker has stopped and the driver closed, so all have published)
            Drain d = drain(s, n, "cost", () -> {
                s.closeDriver();
                Session.sleep(1_000);
                after[0] = counters.read();
            });
            Target.Cost c = after[0].minus(c0);
            f.put("cost.commits", (double) c.commits() / n);
            f.put("cost.wal_bytes", (double) c.walBytes() / n);
            f.put("cost.wal_syncs", (double) c.walSyncs() / n);
            f.put("cost.throughput", d.throughput);
        }
        return f;
    }

    /** Scale: 100 vs 1,000 sequential steps, resuming a 10,000-event history, 100,000 sleeping runs. */
    private Map<String, Double> scale(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        try (Session s = new Session(t, "scale", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            s.startWorker();
            BenchClient c = s.client();
            String steps = BenchWorkflows.STEPS.name();
            status.accept("scale: " + sizes.stepsSmall() + " vs " + sizes.stepsLarge() + " steps");
            timeRun(s, c, steps, sizes.stepsSmall()); // warm-up
            double small = timeRun(s, c, steps, sizes.stepsSmall());
            double large = timeRun(s, c, steps, sizes.stepsLarge());
            f.put("scale.steps_small", small);
            f.put("scale.steps_large", large);
            f.put("scale.ratio", large / small);
            status.accept("scale: history of " + sizes.historySteps() + " steps");
            f.put("scale.replay_cold", resumeHistory(s, c).ms());
            Resumed warm = resumeHistory(s, c);
            f.put("scale.replay", warm.ms());
            f.put("scale.replay_events", (double) warm.events());
            double[] verify = new double[VERIFY_TIMES];
            for (int i = 0; i < verify.length; i++) {
                verify[i] = c.verifyMillis(warm.runId());
            }
            f.put("scale.verify", Stats.percentile(verify, 50));
        }
        try (Session s = new Session(t, "sleepers", sizes, logDir)) {
            if (t.shared()) {
                s.driver();
            }
            WorkerProcess worker = s.startWorker();
            BenchClient c = s.client();
            String wf = BenchWorkflows.SLEEPER.name();
            status.accept("scale: " + sizes.sleepers() + " sleeping runs");
            for (int i = 0; i < sizes.sleepers(); i++) {
                c.submit(wf, 24 * 60);
            }
            s.awaitCount(wf, RunStatus.SLEEPING, sizes.sleepers(), LONG_WAIT_MS);
            long heap = worker.control().heapAfterGc();
            WorkerProcess.Measure m = worker.measure();
            f.put("scale.sleepers_heap", heap / MIB);
            f.put("scale.sleepers_rss", m.rssBytes() / MIB);
        }
        return f;
    }

    private record Resumed(String runId, double ms, long events) {}

    /** Checks of the long history's chain; the median is the figure, the first warms the code up. */
    private static final int VERIFY_TIMES = 7;

    /**
     * Builds a run's long history, waits until it has left memory (waiting for a signal ends its turn),
     * signals it with the send time, and returns how long after the send its next step ran.
     */
    private Resumed resumeHistory(Session s, BenchClient c) {
        String id = c.submit(BenchWorkflows.HISTORY.name(), sizes.historySteps());
        s.awaitStatus(id, RunStatus.WAITING, LONG_WAIT_MS);
        c.signal(id, BenchWorkflows.HISTORY_SIGNAL, BenchWorkflows.epochMicros());
        s.awaitRuns(List.of(id), LONG_WAIT_MS);
        return new Resumed(id, Double.parseDouble(c.result(id)), c.events(id));
    }

    private static double timeRun(Session s, BenchClient c, String wf, int input) {
        long t0 = System.nanoTime();
        String id = c.submit(wf, input);
        s.awaitRuns(List.of(id), LONG_WAIT_MS);
        return (System.nanoTime() - t0) / 1e6;
    }

    private static void checkResult(BenchClient c, String id, String expected) {
        String got = c.result(id);
        if (!got.equals(expected)) {
            throw new IllegalStateException("run " + id + " returned " + got + ", expected " + expected);
        }
    }

    /** Percentiles by nearest rank. */
    static final class Stats {
        private Stats() {}

        static double percentile(double[] values, double p) {
            double[] v = values.clone();
            Arrays.sort(v);
            int rank = (int) Math.ceil(p / 100.0 * v.length);
            return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
        }
    }
}
