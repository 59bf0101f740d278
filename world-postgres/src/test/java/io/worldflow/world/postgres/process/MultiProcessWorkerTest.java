package io.worldflow.world.postgres.process;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.event.StepCompleted;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldConfig;
import io.worldflow.world.postgres.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three worker processes on one database share 500 runs. One is killed with SIGKILL mid-way; another
 * is frozen with SIGSTOP past its lease while it executes steps, so the third takes its runs over, then
 * thawed with SIGCONT so that it tries to write what it had done. Every run completes, each step id has
 * exactly one {@code StepCompleted}, and the thawed worker's late writes are refused (fencing).
 */
class MultiProcessWorkerTest {

    private static final int RUNS = 500;

    @TempDir
    Path dir;

    private final List<Process> workers = new ArrayList<>();
    private java.time.LocalTime thawedAt;

    @AfterEach
    void stopWorkers() {
        for (Process p : workers) {
            signal(p, "CONT");
            p.destroyForcibly();
        }
    }

    @Test
    @Timeout(300)
    void threeWorkerProcessesShareTheRunsThroughAKillAndAPause() throws Exception {
        String schema = "mp_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        WorldConfig config = TestPostgres.shared().config(schema).with("worldflow.world", "postgres");
        Path ledger = dir.resolve("ledger.txt");
        try (Worldflow client = Worldflow.builder().properties(config.asMap()).build()) {
            for (int i = 0; i < RUNS; i++) {
                client.start(WorkerProcessMain.WORKFLOW, i, StartOptions.id("p-" + i));
            }
            Process a = startWorker("a", config, ledger);
            Process b = startWorker("b", config, ledger);
            Process c = startWorker("c", config, ledger);

            awaitCompleted(client, 100);
            a.destroyForcibly(); // SIGKILL
            assertThat(a.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(a.exitValue()).isEqualTo(137);

            awaitCompleted(client, 200);
            signal(b, "STOP"); // frozen while executing steps
            long frozen = completed(client);
            Thread.sleep(4_500); // past its 2 s lease
            assertThat(completed(client)).as("the third worker went on alone").isGreaterThan(frozen);
            thawedAt = java.time.LocalTime.now();
            signal(b, "CONT"); // it wakes and tries to write

            awaitCompleted(client, RUNS);
            for (Process p : List.of(b, c)) {
                p.destroy(); // SIGTERM: graceful stop
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }

            for (int i = 0; i < RUNS; i++) {
                String runId = "p-" + i;
                RunInfo info = client.run(runId).orElseThrow();
                assertThat(info.status()).as(runId).isEqualTo(RunStatus.COMPLETED);
                assertThat(info.output().json()).isEqualTo(Integer.toString(i * 50 + 15));
                Map<String, Integer> completions = new HashMap<>();
                for (var e : client.events(runId)) {
                    if (e instanceof StepCompleted sc) {
                        completions.merge(sc.stepId(), 1, Integer::sum);
                    }
                }
                assertThat(completions)
                        .as(runId + ": one StepCompleted per step")
                        .containsOnly(
                                Map.entry("s1", 1),
                                Map.entry("s2", 1),
                                Map.entry("s3", 1),
                                Map.entry("s4", 1),
                                Map.entry("s5", 1));
            }
        }
        // after the thaw the frozen worker must have found its turns taken over: a heartbeat that finds its
        // lease gone stops the turn before it writes, and a write that races the heartbeat is refused
        List<String> refused = Files.readAllLines(dir.resolve("b.out")).stream()
                .filter(l -> l.contains("lease lost") || l.contains("fenced off") || l.contains("lease lapsed"))
                .filter(l -> !java.time.LocalTime.parse(l.substring(0, 12)).isBefore(thawedAt))
                .toList();
        assertThat(refused)
                .as("the thawed worker's turns were taken over and its late writes refused")
                .isNotEmpty();
        List<String> effects = Files.readAllLines(ledger);
        assertThat(effects.size())
                .as("every step ran at least once")
                .isGreaterThanOrEqualTo(RUNS * WorkerProcessMain.STEPS);
        assertThat(effects)
                .anyMatch(l -> l.startsWith("a "))
                .anyMatch(l -> l.startsWith("b "))
                .anyMatch(l -> l.startsWith("c "));
    }

    private Process startWorker(String name, WorldConfig config, Path ledger) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Dworker.name=" + name,
                "-Dledger=" + ledger,
                "-Dworldflow.worker.lease=2s",
                "-Dworldflow.worker.concurrency=10",
                "-Dworldflow.worker.shutdown-grace=2s"));
        config.asMap().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-cp", cp, WorkerProcessMain.class.getName()));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
        workers.add(p);
        return p;
    }

    private static long completed(Worldflow client) {
        return client.counts(RunQuery.all()).getOrDefault(RunStatus.COMPLETED, 0L);
    }

    private static void awaitCompleted(Worldflow client, int n) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (completed(client) < n) {
            if (System.nanoTime() > end) {
                throw new AssertionError("only " + completed(client) + " of " + n + " runs completed in time; "
                        + client.counts(RunQuery.all()));
            }
            Thread.sleep(20);
        }
    }

    private static void signal(Process p, String signal) {
        if (!p.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
