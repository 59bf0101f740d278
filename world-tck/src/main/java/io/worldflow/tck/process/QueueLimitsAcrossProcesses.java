package io.worldflow.tck.process;

import io.worldflow.QueueSpec;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queue limits across three worker processes of one world: runs are submitted by a client process to a queue with a
 * concurrency of 3 and ordering keys, and to a queue limited to 20 starts a second (or fewer, on a world that
 * executes runs slowly); then, from the runs' own recorded
 * times (a run executes from its first step's {@code StepScheduled} to its {@code WorkflowCompleted}, both recorded
 * after its admission and before its place is given back), no more than 3 runs of the first queue overlap, the runs of
 * one key neither overlap nor change order, and no second holds more starts of the second queue than its limit allows.
 */
public final class QueueLimitsAcrossProcesses {

    static final String CONCURRENT = "tck-concurrent";
    static final String METERED = "tck-metered";
    static final int CONCURRENCY = 3;
    private static final int KEYED_RUNS = 24;
    private static final int KEYS = 4;

    private QueueLimitsAcrossProcesses() {}

    /** A run's recorded execution. */
    record Span(String runId, int index, String key, Instant begin, Instant end) {}

    /**
     * Runs the check on the world {@code config} names, with worker processes writing their output to {@code dir}.
     *
     * @param config the world's configuration, as the worker processes take it
     */
    public static void check(WorldConfig config, Path dir) throws Exception {
        check(config, dir, 20);
    }

    /**
     * As {@link #check(WorldConfig, Path)}, the second queue limited to {@code rate} starts a second: a world that
     * executes runs slowly (an emulator) is given a rate it can keep up with, so that the limit is what paces it.
     */
    public static void check(WorldConfig config, Path dir, int rate) throws Exception {
        int meteredRuns = 3 * rate + 10;
        List<Process> workers = new ArrayList<>();
        try (Worldflow client = Worldflow.builder().properties(config.asMap()).build()) {
            client.queues().define(QueueSpec.named(CONCURRENT).withConcurrency(CONCURRENCY));
            client.queues().define(QueueSpec.named(METERED).withRateLimit(rate, Duration.ofSeconds(1)));
            for (String name : List.of("a", "b", "c")) {
                workers.add(startWorker(name, config, dir));
            }
            for (int i = 0; i < KEYED_RUNS; i++) {
                client.submit(
                        QueueWorkerMain.HELD.name(),
                        "c-" + i,
                        StartOptions.queue(CONCURRENT).withKey("k" + (i % KEYS)).withId(runId("c", i)));
            }
            for (int i = 0; i < meteredRuns; i++) {
                client.submit(
                        QueueWorkerMain.QUICK.name(),
                        "m-" + i,
                        StartOptions.queue(METERED).withId(runId("m", i)));
            }
            awaitCompleted(client, "c", KEYED_RUNS);
            awaitCompleted(client, "m", meteredRuns);

            List<Span> keyed = spans(client, "c", KEYED_RUNS);
            assertThat(mostOverlapping(keyed))
                    .as("runs of the queue executing at once, from their recorded times")
                    .isBetween(1, CONCURRENCY);
            for (int k = 0; k < KEYS; k++) {
                String key = "k" + k;
                List<Span> ofKey =
                        keyed.stream().filter(s -> s.key().equals(key)).toList();
                for (int i = 1; i < ofKey.size(); i++) {
                    assertThat(ofKey.get(i).begin())
                            .as(
                                    "run %s of key %s begins after %s ends",
                                    ofKey.get(i).runId(), key, ofKey.get(i - 1).runId())
                            .isAfterOrEqualTo(ofKey.get(i - 1).end());
                }
            }

            List<Instant> starts = spans(client, "m", meteredRuns).stream()
                    .map(Span::begin)
                    .sorted()
                    .toList();
            // one start per interval; a late admission round may catch up 25 ms, and a start is recorded after its
            // admission, by whichever worker takes the run up: a few ms, but on a loaded machine more than an interval
            // for one run while the next is on time. So a second's window of recorded starts may hold the limit plus
            // one for the slack and two for the recording, never more: admitting at twice the limit, as processes
            // that did not share it would, puts twice the limit in a window. In the first second the
            // workers' JVMs are still cold and take some runs up later than others, which bunches their recorded
            // starts: the windows are counted from the second after the first start, as the benchmark counts them.
            Instant warm = starts.getFirst().plusSeconds(1);
            for (int i = 0; i + rate + 3 < starts.size(); i++) {
                if (starts.get(i).isBefore(warm)) {
                    continue;
                }
                assertThat(Duration.between(starts.get(i), starts.get(i + rate + 3)))
                        .as("%d starts from the %dth", rate + 4, i)
                        .isGreaterThan(Duration.ofSeconds(1));
            }
            // the limit paces the starts (not much slower than it), and, with the same allowance as each second's
            // window above (one start for the slack, two for the recording), n starts span at least n - 4 intervals:
            // a fixed share over the limit would not do, since a start's recording delay is a large part of a
            // short test's span on a slow world
            List<Instant> warmStarts =
                    starts.stream().filter(s -> !s.isBefore(warm)).toList();
            Duration span = Duration.between(warmStarts.getFirst(), warmStarts.getLast());
            double measured = (warmStarts.size() - 1) / (span.toNanos() / 1e9);
            assertThat(measured)
                    .as("starts a second once warm, at a limit of %d", rate)
                    .isGreaterThan(rate * 0.8);
            assertThat(span)
                    .as("%d starts once warm, at a limit of %d a second", warmStarts.size(), rate)
                    .isGreaterThanOrEqualTo(
                            Duration.ofSeconds(1).dividedBy(rate).multipliedBy(warmStarts.size() - 4));
            // each place is given back by its worker's next admission round, just after its run's end
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (client.queues().describe(CONCURRENT).orElseThrow().running() > 0 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertThat(client.queues().describe(CONCURRENT).orElseThrow().running())
                    .as("places held once every run has ended")
                    .isZero();
        } finally {
            for (Process p : workers) {
                p.destroy();
            }
            for (Process p : workers) {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    static String runId(String prefix, int i) {
        return prefix + "-" + String.format("%03d", i);
    }

    static List<Span> spans(Worldflow client, String prefix, int n) {
        List<Span> spans = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String runId = runId(prefix, i);
            Instant begin = null;
            Instant end = null;
            for (Event e : client.events(runId)) {
                if (e instanceof StepScheduled s && begin == null) {
                    begin = s.at();
                } else if (e instanceof WorkflowCompleted c) {
                    end = c.at();
                }
            }
            assertThat(begin).as(runId + " began").isNotNull();
            assertThat(end).as(runId + " completed").isNotNull();
            spans.add(new Span(runId, i, "k" + (i % KEYS), begin, end));
        }
        return spans;
    }

    /** The most spans that hold one instant: an end and a begin at the same instant do not overlap. */
    private static int mostOverlapping(List<Span> spans) {
        Map<Instant, Integer> delta = new TreeMap<>();
        for (Span s : spans) {
            delta.merge(s.begin(), 1, Integer::sum);
            delta.merge(s.end(), -1, Integer::sum);
        }
        int now = 0;
        int most = 0;
        List<Map.Entry<Instant, Integer>> entries = new ArrayList<>(delta.entrySet());
        entries.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
        for (Map.Entry<Instant, Integer> e : entries) {
            now += e.getValue();
            most = Math.max(most, now);
        }
        return most;
    }

    static void awaitCompleted(Worldflow client, String prefix, int n) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        for (int i = 0; i < n; i++) {
            String runId = runId(prefix, i);
            while (client.run(runId).map(r -> r.status() != RunStatus.COMPLETED).orElse(true)) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("run " + runId + " did not complete in time: " + client.run(runId));
                }
                Thread.sleep(20);
            }
        }
    }

    private static Process startWorker(String name, WorldConfig config, Path dir) throws IOException {
        return startWorker(name, config, dir, List.of());
    }

    /** A {@link QueueWorkerMain} process serving both queues, with {@code flags} added to its command line. */
    static Process startWorker(String name, WorldConfig config, Path dir, List<String> flags) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Dworker.name=" + name,
                "-Dworldflow.worker.queues=default," + CONCURRENT + "," + METERED,
                "-Dworldflow.worker.shutdown-grace=2s"));
        cmd.addAll(flags);
        config.asMap().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-cp", cp, QueueWorkerMain.class.getName()));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
    }
}
