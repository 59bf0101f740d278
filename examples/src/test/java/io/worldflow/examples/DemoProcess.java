package io.worldflow.examples;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the README demo as a separate JVM over one database and a ledger of side effects, and checks
 * the database afterwards. Used by the process-kill and graceful-shutdown tests.
 */
final class DemoProcess {

    static final int ORDERS = 30;
    /** Side effects per order: the declined first charge, the charge, three labels. */
    static final int EFFECTS_PER_ORDER = 5;

    final Path dir;
    final Path db;
    final Path ledger;
    /** For each process started: the steps whose completion was durable before it started. */
    final Map<Long, Set<String>> completedBefore = new HashMap<>();

    DemoProcess(Path dir) {
        this.dir = dir;
        this.db = dir.resolve("demo.db");
        this.ledger = dir.resolve("ledger.txt");
    }

    Process start(String name) throws IOException {
        Set<String> completed = Files.exists(db) ? completedSteps() : Set.of();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(ChildJvm.accessFlags());
        cmd.addAll(List.of(
                "-Dworldflow.local.path=" + db,
                "-Dworldflow.worker.lease=2s",
                "-Dworldflow.dashboard.port=0",
                "-Dworldflow.worker.shutdown-grace=5s",
                "-cp",
                System.getProperty("java.class.path"),
                OrderFulfilmentMain.class.getName(),
                "--batch",
                "crash",
                "--orders",
                Integer.toString(ORDERS),
                "--ledger",
                ledger.toString(),
                "--cool-off",
                "800",
                "--step-millis",
                "25",
                "--quiet"));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(output(name).toFile())
                .start();
        completedBefore.put(p.pid(), completed);
        return p;
    }

    Path output(String name) {
        return dir.resolve(name + ".out");
    }

    /**
     * Waits until the demo has printed {@code labels} labels. A label happens only after its run's charge
     * completion is durable (durable before visible), so a kill now lands with history written and runs in flight.
     */
    void awaitLabels(int labels, Process p) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < end) {
            assertThat(p.isAlive()).as("the demo process is still running").isTrue();
            if (Files.exists(ledger)
                    && Files.readAllLines(ledger).stream()
                                    .filter(l -> l.contains(" label "))
                                    .count()
                            >= labels) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("the demo did not print " + labels + " labels in time");
    }

    /** Waits until the demo has made {@code n} side effects of any kind. */
    void awaitEffects(int n, Process p) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < end) {
            assertThat(p.isAlive()).as("the demo process is still running").isTrue();
            if (Files.exists(ledger) && Files.readAllLines(ledger).size() >= n) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("the demo did not make " + n + " side effects in time");
    }

    /**
     * Turns still leased, read from the SQLite file directly: opening it as a world clears leases (the
     * local world's file belongs to one process), so this is the only way to see what a process left behind.
     */
    int leasedTurns() throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
                java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM tasks WHERE lease_token IS NOT NULL")) {
            return rs.next() ? rs.getInt(1) : -1;
        }
    }

    Worldflow client() {
        return Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .build();
    }

    Set<String> completedSteps() {
        Set<String> out = new HashSet<>();
        try (Worldflow wf = client()) {
            for (int i = 1; i <= ORDERS; i++) {
                String runId = "crash-" + i;
                if (wf.run(runId).isEmpty()) {
                    continue;
                }
                for (Event e : wf.events(runId)) {
                    if (e instanceof StepCompleted c) {
                        out.add(runId + ":" + c.stepId());
                    }
                }
            }
        }
        return out;
    }

    Map<String, RunStatus> statuses() {
        Map<String, RunStatus> out = new HashMap<>();
        try (Worldflow wf = client()) {
            for (int i = 1; i <= ORDERS; i++) {
                wf.run("crash-" + i).ifPresent(r -> out.put(r.runId(), r.status()));
            }
        }
        return out;
    }

    /**
     * Every run completed, each step exactly once, each timer fired once and not early, each approval
     * consumed once and none left over, and no process re-ran a step whose completion was durable before it started.
     */
    void verifyEveryRunFinishedCorrectly() throws IOException {
        try (Worldflow wf = client()) {
            for (int i = 1; i <= ORDERS; i++) {
                String runId = "crash-" + i;
                RunInfo info = wf.run(runId).orElseThrow();
                assertThat(info.status()).as(runId).isEqualTo(RunStatus.COMPLETED);
                assertThat(info.output().json()).contains("shipped");
                List<Event> events = wf.events(runId);
                Map<String, Integer> completions = new HashMap<>();
                for (Event e : events) {
                    if (e instanceof StepCompleted c) {
                        completions.merge(c.stepId(), 1, Integer::sum);
                    }
                }
                assertThat(completions)
                        .as(runId + " completes each step exactly once")
                        .containsOnlyKeys("charge", "labels/0/label", "labels/1/label", "labels/2/label");
                assertThat(completions.values()).allMatch(n -> n == 1);
                List<TimerFired> fired = events.stream()
                        .filter(TimerFired.class::isInstance)
                        .map(TimerFired.class::cast)
                        .toList();
                assertThat(fired).as(runId + " fires its timer once").hasSize(1);
                TimerScheduled scheduled = events.stream()
                        .filter(TimerScheduled.class::isInstance)
                        .map(TimerScheduled.class::cast)
                        .findFirst()
                        .orElseThrow();
                assertThat(fired.getFirst().at()).isAfterOrEqualTo(scheduled.fireAt());
                assertThat(events)
                        .filteredOn(SignalReceived.class::isInstance)
                        .as(runId + " consumed its approval")
                        .hasSize(1);
                assertThat(wf.world().signals().pending(runId))
                        .as(runId + " has no lost signal")
                        .isEmpty();
            }
        }
        List<String> lines = Files.readAllLines(ledger);
        for (String line : lines) {
            String[] parts = line.split(" ");
            long pid = Long.parseLong(parts[0]);
            String[] key = parts[2].split(":");
            String step = key[0] + ":" + key[1];
            assertThat(completedBefore.get(pid))
                    .as("process %d re-ran completed step %s", pid, step)
                    .doesNotContain(step);
        }
        assertThat(lines.size()).isGreaterThanOrEqualTo(ORDERS * EFFECTS_PER_ORDER);
    }
}
