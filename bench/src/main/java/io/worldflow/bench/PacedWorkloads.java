package io.worldflow.bench;

import io.worldflow.OverlapPolicy;
import io.worldflow.QueueSpec;
import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.StartOptions;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.Schedules;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The workloads whose figures are times the engine keeps by itself: W7, when scheduled runs begin against their fire
 * times, and W8, how evenly a rate-limited queue lets runs begin. A run began when its first step was recorded (the
 * {@code StepScheduled} of {@link BenchWorkflows#TICK}'s one step). Every run's events are read after the workers have
 * stopped, so that reading tens of thousands of logs takes nothing from the workers while they are measured.
 */
final class PacedWorkloads {

    /** W8's rate-limited queue. */
    static final String QUEUE = "metered";

    /**
     * W8: the runs are due this long after their submits begin, plus {@link #FEED_MS_PER_RUN} per run: room for a cold
     * driver's submits on a machine busy with other tests too (400 smoke runs once took longer than 2.8 s).
     */
    private static final long FEED_LEAD_MS = 4_000;

    private static final long FEED_MS_PER_RUN = 4;

    private static final long LONG_WAIT_MS = 30 * 60_000L;
    /** W7: time to create the schedules and start the worker JVM before the first fire time, plus 5 ms per schedule. */
    private static final long LEAD_MS = 5_000;
    /** W7: once past the last fire time, how long the count of finished runs must stay still to be final. */
    private static final long SETTLE_MS = 5_000;
    /** W7: the first fire times, met by a worker JVM that has run nothing yet, reported apart from the rest. */
    private static final int COLD_FIRES = 3;
    /**
     * How often runs are counted while W7 and W8 wait. Their figures come from the runs' own timestamps, so a slow
     * count costs no accuracy, and counting tens of thousands of runs every few ms would load the world being measured.
     */
    private static final long COUNT_EVERY_MS = 500;

    private final Sizes sizes;
    private final Path logDir;
    private final Consumer<String> status;

    PacedWorkloads(Sizes sizes, Path logDir, Consumer<String> status) {
        this.sizes = sizes;
        this.logDir = logDir;
        this.status = status;
    }

    /**
     * W7: schedules that fire every second for a while, all on the same whole seconds (as cron schedules do, so the
     * worker meets every one at once), on one worker; then each run's lateness (began − fire time) and two checks:
     * fire times that started more than one run, and fire times in the window that started none. The overlap policy
     * lets every fire time start its run whatever the previous one does, so a fire time without a run is one the
     * engine missed, not one its policy passed over; the worker is up from before the first fire time to after the
     * last, so the whole window counts.
     */
    Map<String, Double> w7(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        int n = sizes.w7Schedules();
        int seconds = sizes.w7Seconds();
        String wf = BenchWorkflows.TICK.name();
        try (Session s = new Session(t, "w7", sizes, logDir)) {
            Schedules schedules = s.driver().worldflow().schedules();
            Instant first = Instant.now()
                    .plusMillis(LEAD_MS + 5L * n)
                    .truncatedTo(ChronoUnit.SECONDS)
                    .plusSeconds(1);
            Instant last = first.plusSeconds(seconds - 1);
            status.accept("W7 create " + n + " schedules");
            for (int i = 0; i < n; i++) {
                schedules.create(ScheduleSpec.every(scheduleId(i), Duration.ofSeconds(1), wf, i)
                        .startingAt(first)
                        .endingAt(last)
                        .withOverlap(OverlapPolicy.ALLOW_ALL));
            }
            // as many slots as runs begin at once, so that each second's runs all wait in memory for their fire time
            // rather than queue for slots after it (a run that waits holds a virtual thread, no platform thread)
            s.startWorker(Map.of("bench.worker.concurrency", Integer.toString(Math.max(100, 2 * n))));
            Instant up = Instant.now();
            if (!up.isBefore(first)) {
                throw new IllegalStateException("W7: creating the schedules and starting the worker took until " + up
                        + ", past the first fire time " + first + " (" + LEAD_MS + " ms + 5 ms per schedule ahead)");
            }
            status.accept("W7 " + n + " schedules firing every second for " + seconds + " s");
            awaitFires(s, wf, (long) n * seconds, last);
            s.stopWorker();
            status.accept("W7 read the runs");
            Map<String, Map<Instant, Integer>> fired = new HashMap<>();
            List<Double> lateness = new ArrayList<>();
            Map<Instant, List<Double>> byFireTime = new TreeMap<>();
            forEachLog(s.driver().worldflow(), wf, log -> {
                WorkflowStarted started = (WorkflowStarted) log.getFirst();
                if (started.schedule() == null) {
                    throw new IllegalStateException("W7 run " + started.runId() + " was not started by a schedule");
                }
                fired.computeIfAbsent(started.schedule(), k -> new HashMap<>())
                        .merge(started.scheduledFor(), 1, Integer::sum);
                Instant began = began(log);
                if (began != null) {
                    double ms = Duration.between(started.scheduledFor(), began).toNanos() / 1e6;
                    lateness.add(ms);
                    byFireTime
                            .computeIfAbsent(started.scheduledFor(), k -> new ArrayList<>())
                            .add(ms);
                }
            });
            long runs = 0;
            long twice = 0;
            long skipped = 0;
            for (int i = 0; i < n; i++) {
                Map<Instant, Integer> byFire = fired.getOrDefault(scheduleId(i), Map.of());
                for (int count : byFire.values()) {
                    runs += count;
                    twice += count - 1;
                }
                for (Instant at = first; !at.isAfter(last); at = at.plusSeconds(1)) {
                    if (!byFire.containsKey(at)) {
                        skipped++;
                    }
                }
            }
            // how the lateness moves over the minute (a backlog grows, or catches up), for the log
            status.accept("W7 lateness p50 by fire time, ms: "
                    + byFireTime.values().stream()
                            .map(v -> Long.toString(Math.round(Workloads.Stats.percentile(
                                    v.stream().mapToDouble(Double::doubleValue).toArray(), 50))))
                            .toList());
            if (lateness.isEmpty()) {
                throw new IllegalStateException("W7: no scheduled run began");
            }
            // the worker JVM is fresh at the first fire times, its code not yet compiled: those are reported on their
            // own, and the lateness figures are those of the fire times after them
            List<Double> warm = new ArrayList<>();
            List<Double> cold = new ArrayList<>();
            byFireTime.forEach((at, ms) -> (at.isBefore(first.plusSeconds(COLD_FIRES)) ? cold : warm).addAll(ms));
            double[] late = (warm.isEmpty() ? lateness : warm)
                    .stream().mapToDouble(Double::doubleValue).toArray();
            f.put("w7.p50", Workloads.Stats.percentile(late, 50));
            f.put("w7.p99", Workloads.Stats.percentile(late, 99));
            f.put("w7.max", Arrays.stream(late).max().orElseThrow());
            double[] firstOnes = byFireTime.values().iterator().next().stream()
                    .mapToDouble(Double::doubleValue)
                    .toArray();
            f.put("w7.cold_p50", Workloads.Stats.percentile(firstOnes, 50));
            f.put(
                    "w7.cold_max",
                    cold.stream().mapToDouble(Double::doubleValue).max().orElse(0));
            f.put("w7.runs", (double) runs);
            f.put("w7.twice", (double) twice);
            f.put("w7.skipped", (double) skipped);
        }
        return f;
    }

    private static String scheduleId(int i) {
        return "w7-" + i;
    }

    /**
     * Waits until {@code expected} runs have completed or, once past the last fire time, the count has not moved for
     * {@link #SETTLE_MS} (fire times the engine missed are counted afterwards). Nothing is counted before the last
     * fire time.
     */
    private static void awaitFires(Session s, String wf, long expected, Instant last) {
        long untilLast = Duration.between(Instant.now(), last).toMillis();
        if (untilLast > 0) {
            Session.sleep(untilLast);
        }
        BenchClient c = s.client();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LONG_WAIT_MS);
        long seen = -1;
        long stillSince = System.nanoTime();
        while (true) {
            long done = c.count(wf, RunStatus.COMPLETED);
            if (done >= expected) {
                return;
            }
            if (c.count(wf, RunStatus.FAILED) > 0) {
                throw new IllegalStateException("a run of " + wf + " failed");
            }
            long now = System.nanoTime();
            if (done != seen) {
                seen = done;
                stillSince = now;
            } else if (now - stillSince > TimeUnit.MILLISECONDS.toNanos(SETTLE_MS)
                    && Instant.now().isAfter(last.plusMillis(SETTLE_MS))) {
                return;
            }
            if (now > end) {
                throw new IllegalStateException(done + " of " + expected + " scheduled runs completed");
            }
            Session.sleep(COUNT_EVERY_MS);
        }
    }

    /**
     * W8: a queue limited to {@code w8Rate} starts per second, served by two worker JVMs where the world lets several
     * processes in (one otherwise), fed its runs one call at a time once the workers are up, all due at one instant after
     * the last submit (so the queue is never short of runs); then the starts in every whole second after the first,
     * counted
     * from the first start. The workers start first so that a second JVM starting up is not counted against the limit.
     */
    Map<String, Double> w8(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        int n = sizes.w8Runs();
        int rate = sizes.w8Rate();
        String wf = BenchWorkflows.TICK.name();
        try (Session s = new Session(t, "w8", sizes, logDir)) {
            s.driver().worldflow().queues().define(QueueSpec.named(QUEUE).withRateLimit(rate, Duration.ofSeconds(1)));
            int workers = t.shared() ? 2 : 1;
            for (int i = 0; i < workers; i++) {
                s.startWorker(Map.of(WorkerOptions.QUEUES, StartOptions.DEFAULT_QUEUE + "," + QUEUE));
            }
            status.accept("W8 " + n + " runs at " + rate + " starts/s, " + workers + " worker(s)");
            // every run due at one instant, once all are in: the limit alone paces them from a full queue, whatever the
            // rate of one thread's submits from a driver JVM that has not warmed up (at first below the limit)
            Instant due = Instant.now().plusMillis(FEED_LEAD_MS + (long) n * FEED_MS_PER_RUN);
            BenchClient c = s.client();
            for (int i = 0; i < n; i++) {
                c.submit(wf, i, QUEUE, due);
            }
            if (Instant.now().isAfter(due)) {
                throw new IllegalStateException("W8: submitting " + n + " runs took past the instant they were due ("
                        + due + "): the queue was short of runs, which would be counted against its limit");
            }
            awaitCompleted(s, wf, n);
            s.stopWorker();
            status.accept("W8 read the runs");
            List<Instant> starts = new ArrayList<>();
            forEachLog(s.driver().worldflow(), wf, log -> {
                Instant began = began(log);
                if (began != null) {
                    starts.add(began);
                }
            });
            if (starts.size() != n) {
                throw new IllegalStateException("W8: " + starts.size() + " of " + n + " runs show a start");
            }
            Windows w = Windows.of(starts, rate);
            status.accept("W8 starts per whole second after the first: " + Arrays.toString(w.counts()));
            f.put("w8.window_median", w.median());
            f.put("w8.window_min", w.min());
            f.put("w8.window_max", w.max());
            f.put("w8.worst_deviation", w.worstDeviation());
            f.put("w8.rate", w.rate());
        }
        return f;
    }

    private static void awaitCompleted(Session s, String wf, long n) {
        BenchClient c = s.client();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LONG_WAIT_MS);
        long done;
        while ((done = c.count(wf, RunStatus.COMPLETED)) < n) {
            if (c.count(wf, RunStatus.FAILED) > 0) {
                throw new IllegalStateException("a run of " + wf + " failed");
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(done + " of " + n + " runs of " + wf + " completed");
            }
            Session.sleep(COUNT_EVERY_MS);
        }
    }

    /**
     * Starts counted per whole one-second window after the first, counted from the first start: window k holds the
     * starts in {@code [first + k s, first + (k + 1) s)}, and it is whole when the last start is at or after its end.
     *
     * @param counts         the starts of windows 1, 2, … (the first, and the last one cut short, left out)
     * @param worstDeviation the largest difference of a window's count from the limit, in % of the limit
     * @param rate           all starts but the first over the time from the first to the last, per second
     */
    record Windows(int[] counts, double median, double min, double max, double worstDeviation, double rate) {

        static Windows of(List<Instant> starts, int limit) {
            long[] micros =
                    starts.stream().mapToLong(BenchWorkflows::micros).sorted().toArray();
            long first = micros[0];
            long span = micros[micros.length - 1] - first;
            int whole = (int) (span / 1_000_000L); // windows 0 .. whole - 1 are whole
            if (whole < 2) {
                throw new IllegalStateException("W8: the starts span " + span / 1e6
                        + " s, too short for a whole window after the first; feed more runs (--w8-runs)");
            }
            int[] all = new int[whole + 1];
            for (long m : micros) {
                all[(int) Math.min(whole, (m - first) / 1_000_000L)]++;
            }
            int[] counts = Arrays.copyOfRange(all, 1, whole);
            List<Double> values =
                    Arrays.stream(counts).mapToDouble(c -> c).boxed().toList();
            double worst = 0;
            for (int c : counts) {
                worst = Math.max(worst, Math.abs(c - limit) * 100.0 / limit);
            }
            return new Windows(
                    counts,
                    Results.median(values),
                    Results.min(values),
                    Results.max(values),
                    worst,
                    (micros.length - 1) / (span / 1e6));
        }
    }

    /** When the run began to execute: its first recorded step, else its first event after {@code WorkflowStarted}. */
    private static Instant began(List<Event> log) {
        for (Event e : log) {
            if (e instanceof StepScheduled) {
                return e.at();
            }
        }
        return log.size() > 1 ? log.get(1).at() : null;
    }

    /** Every run of {@code workflow}'s event log, page by page. */
    private static void forEachLog(Worldflow wf, String workflow, Consumer<List<Event>> each) {
        Set<String> read = new HashSet<>();
        String cursor = null;
        do {
            RunQuery q = RunQuery.all().withWorkflow(workflow).withLimit(RunQuery.MAX_LIMIT);
            RunPage page = wf.runs(cursor == null ? q : q.withCursor(cursor));
            for (RunInfo run : page.runs()) {
                if (read.add(run.runId())) {
                    each.accept(wf.events(run.runId()));
                }
            }
            cursor = page.nextCursor();
        } while (cursor != null);
    }
}
