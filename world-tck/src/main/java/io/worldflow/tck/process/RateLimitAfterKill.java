package io.worldflow.tck.process;

import io.worldflow.QueueSpec;
import io.worldflow.StartOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker killed with SIGKILL while it holds runs of a rate-limited queue that it has not recorded a step of (runs
 * admitted ahead of their starts, and runs in their first step, which takes a second): the worker that takes them up
 * begins each at a new start of the limit's schedule, instead of all at once beside the runs admitted since. One
 * worker process streams the queue's runs and is killed; a second one, started after the kill, finishes them (where
 * leases lapse, it is still doing so when the first one's lapse). Each run the second worker says it gave a new start
 * began no earlier than that start, no two such runs share one, and, from the runs' recorded starts, no second and no
 * quarter of a second holds more than the limit allows (with the allowances of {@link QueueLimitsAcrossProcesses}).
 */
public final class RateLimitAfterKill {

    /** Long enough for the second worker to be warm when the first one's leases lapse. */
    private static final Duration LEASE = Duration.ofSeconds(5);

    /** What the worker that takes up such a run logs ({@code QueueRunner}): the run and its new start. */
    private static final Pattern REDELIVERED = Pattern.compile(
            "run (\\S+) of queue \\S+ was delivered again after its start \\S+ passed: it starts at (\\S+)");

    private RateLimitAfterKill() {}

    /** How the world is reached, which decides what the check can ask of the starts' timing. */
    public enum World {
        /** Any number of processes at once, pacing starts closely (Postgres): every check. */
        SHARED,
        /**
         * Any number of processes at once, through emulators that pace starts loosely (the AWS world on DynamoDB Local
         * and ElasticMQ): the new starts given and kept, not each second's count.
         */
        EMULATED,
        /**
         * One process at a time (the local world): the check reads the world only while no worker runs, and the
         * second worker, on opening it, takes up at once what the killed one held (the leases of a process that died
         * are dropped, not waited for).
         */
        ONE_PROCESS
    }

    /**
     * Runs the check on the world {@code config} names, the queue limited to {@code rate} starts a second: the killed
     * worker holds about that many runs in their first step.
     */
    public static void check(WorldConfig config, Path dir, int rate, World world) throws Exception {
        boolean oneProcess = world == World.ONE_PROCESS;
        String metered = QueueLimitsAcrossProcesses.METERED;
        int runs = 12 * rate;
        List<String> flags = List.of("-Dworldflow.worker.lease=" + LEASE.toSeconds() + "s");
        Process first = null;
        Process second = null;
        Worldflow client = Worldflow.builder().properties(config.asMap()).build();
        try {
            client.queues().define(QueueSpec.named(metered).withRateLimit(rate, Duration.ofSeconds(1)));
            for (int i = 0; i < runs; i++) {
                client.submit(
                        QueueWorkerMain.SLOW.name(),
                        "k-" + i,
                        StartOptions.queue(metered).withId(QueueLimitsAcrossProcesses.runId("k", i)));
            }
            if (oneProcess) {
                client.close();
            }
            first = QueueLimitsAcrossProcesses.startWorker("first", config, dir, flags);
            // about five seconds of starts, the worker warm and admitting ahead, then killed mid-stream
            if (oneProcess) {
                awaitReady(dir, "first", first);
                Thread.sleep(Duration.ofSeconds(5));
            } else {
                QueueLimitsAcrossProcesses.awaitCompleted(client, "k", 5 * rate);
            }
            first.destroyForcibly();
            Instant killedAt = Instant.now();
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue()).as("killed by SIGKILL").isEqualTo(137);
            second = QueueLimitsAcrossProcesses.startWorker("second", config, dir, flags);
            if (oneProcess) {
                awaitReady(dir, "second", second);
                // what is left takes seven to nine seconds at the limit (less the more the first worker began), and
                // this process cannot look meanwhile: the worker stops well after that and the world is read
                Thread.sleep(Duration.ofSeconds(20));
                second.destroy();
                assertThat(second.waitFor(30, TimeUnit.SECONDS)).isTrue();
                client = Worldflow.builder().properties(config.asMap()).build();
            }
            QueueLimitsAcrossProcesses.awaitCompleted(client, "k", runs);
            List<QueueLimitsAcrossProcesses.Span> spans = QueueLimitsAcrossProcesses.spans(client, "k", runs);

            Matcher redelivered = REDELIVERED.matcher(Files.readString(dir.resolve("second.out")));
            Set<Instant> newStarts = new HashSet<>();
            while (redelivered.find()) {
                String runId = redelivered.group(1);
                Instant start = Instant.parse(redelivered.group(2));
                assertThat(newStarts.add(start))
                        .as("new start %s given twice", start)
                        .isTrue();
                Instant begun = spans.stream()
                        .filter(s -> s.runId().equals(runId))
                        .findFirst()
                        .orElseThrow()
                        .begin();
                assertThat(begun).as("run %s begins at its new start", runId).isAfterOrEqualTo(start);
            }
            assertThat(newStarts)
                    .as("runs the killed worker held, given new starts by the second one")
                    .isNotEmpty();
            // each new start is one of the limit's: no two closer than its interval, less the 25 ms by which a limit
            // that fell behind catches up
            List<Instant> given = newStarts.stream().sorted().toList();
            Duration interval = Duration.ofSeconds(1).dividedBy(rate).minusMillis(25);
            for (int i = 1; i < given.size(); i++) {
                assertThat(Duration.between(given.get(i - 1), given.get(i)))
                        .as("new starts %s, at a limit of %d a second", given, rate)
                        .isGreaterThanOrEqualTo(interval);
            }
            if (world == World.EMULATED) {
                return;
            }

            List<Instant> starts = spans.stream()
                    .map(QueueLimitsAcrossProcesses.Span::begin)
                    .sorted()
                    .toList();
            // each worker's first second is left out: a cold JVM takes some runs up later than others, which bunches
            // their recorded starts
            Instant firstWarm = starts.getFirst().plusSeconds(1);
            Instant secondWarm = starts.stream()
                    .filter(s -> s.isAfter(killedAt))
                    .findFirst()
                    .orElseThrow()
                    .plusSeconds(1);
            List<Instant> warm = starts.stream()
                    .filter(s -> (s.isAfter(firstWarm) && s.isBefore(killedAt)) || s.isAfter(secondWarm))
                    .toList();
            // a second holds the limit and the allowances of QueueLimitsAcrossProcesses (one start for the slack, two
            // for the recording); a quarter of a second a quarter of the limit and the same allowances, which runs
            // begun all at once do not fit in
            for (Duration window : List.of(Duration.ofSeconds(1), Duration.ofMillis(250))) {
                int allowed = (int) (rate * window.toMillis() / 1000) + 3;
                for (int i = 0; i + allowed < warm.size(); i++) {
                    assertThat(Duration.between(warm.get(i), warm.get(i + allowed)))
                            .as(
                                    "%d starts from %s, at a limit of %d a second; the starts once warm: %s; the new"
                                            + " starts: %s",
                                    allowed + 1, warm.get(i), rate, warm, newStarts)
                            .isGreaterThan(window);
                }
            }
        } finally {
            client.close();
            for (Process p : new Process[] {first, second}) {
                if (p != null) {
                    p.destroy();
                    if (!p.waitFor(30, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                }
            }
        }
    }

    private static void awaitReady(Path dir, String name, Process worker) throws Exception {
        Path out = dir.resolve(name + ".out");
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(out) || !Files.readString(out).contains("worker " + name + " ready")) {
            assertThat(worker.isAlive()).as("worker %s is up", name).isTrue();
            assertThat(System.nanoTime()).as("worker %s ready in time", name).isLessThan(until);
            Thread.sleep(50);
        }
    }
}
