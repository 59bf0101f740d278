package io.worldflow.examples;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the README demo in a child JVM, kills it with SIGKILL twice while orders are in flight, starts
 * it again, and checks what a user relies on: every run finishes, no completed step runs again, no
 * timer is lost or fires twice, no signal is lost.
 */
class DemoCrashRecoveryTest {

    private static final int ORDERS = 30;
    /** Side effects per order: the declined first charge, the charge, three labels. */
    private static final int EFFECTS_PER_ORDER = 5;

    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void aKilledDemoResumesEveryRunWithoutRepeatingCompletedSteps() throws Exception {
        Path db = dir.resolve("crash.db");
        Path ledger = dir.resolve("ledger.txt");

        Map<Long, Set<String>> completedBefore = new HashMap<>();
        // kill once labels are being printed: a label happens only after its run's charge completion is
        // durable (durable before visible), so each kill lands with history written and runs in flight
        int[] killAtLabels = {3, 40};
        Set<String> completed = Set.of();
        for (int round = 0; round < killAtLabels.length; round++) {
            Process p = startDemo(db, ledger, "kill" + round);
            completedBefore.put(p.pid(), completed);
            awaitLabels(ledger, killAtLabels[round], p);
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("killed by SIGKILL").isEqualTo(137);
            completed = completedSteps(db);
            assertThat(completed).as("some steps completed before kill " + round).isNotEmpty();
        }
        assertThat(runStatuses(db).values()).as("runs still in flight after the kills").anyMatch(s -> !s.isTerminal());

        Process last = startDemo(db, ledger, "final");
        completedBefore.put(last.pid(), completed);
        assertThat(last.waitFor(180, TimeUnit.SECONDS)).as("the restarted demo finishes").isTrue();
        String out = Files.readString(dir.resolve("final.out"));
        assertThat(last.exitValue()).as(out).isZero();
        assertThat(out).contains("COMPLETED=" + ORDERS);

        try (Worldflow wf = client(db)) {
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
                assertThat(completions).as(runId + " completes each step exactly once").containsOnlyKeys(
                        "charge", "labels/0/label", "labels/1/label", "labels/2/label");
                assertThat(completions.values()).allMatch(n -> n == 1);
                List<TimerFired> fired = events.stream().filter(TimerFired.class::isInstance).map(TimerFired.class::cast).toList();
                assertThat(fired).as(runId + " fires its timer once").hasSize(1);
                TimerScheduled scheduled = events.stream().filter(TimerScheduled.class::isInstance)
                        .map(TimerScheduled.class::cast).findFirst().orElseThrow();
                assertThat(fired.getFirst().at()).isAfterOrEqualTo(scheduled.fireAt());
                assertThat(events).filteredOn(SignalReceived.class::isInstance).as(runId + " consumed its approval").hasSize(1);
                assertThat(wf.world().signals().pending(runId)).as(runId + " has no lost signal").isEmpty();
            }
        }

        // a step whose completion was durable when a process was killed never ran again afterwards
        for (String line : Files.readAllLines(ledger)) {
            String[] parts = line.split(" ");
            long pid = Long.parseLong(parts[0]);
            String[] key = parts[2].split(":");
            String step = key[0] + ":" + key[1];
            assertThat(completedBefore.get(pid)).as("process %d re-ran completed step %s", pid, step).doesNotContain(step);
        }
        assertThat(Files.readAllLines(ledger).size()).isGreaterThanOrEqualTo(ORDERS * EFFECTS_PER_ORDER);
    }

    private Process startDemo(Path db, Path ledger, String name) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java,
                "-Dworldflow.local.path=" + db,
                "-Dworldflow.worker.lease=2s",
                "-cp", System.getProperty("java.class.path"),
                OrderFulfilmentMain.class.getName(),
                "--batch", "crash", "--orders", Integer.toString(ORDERS), "--ledger", ledger.toString(),
                "--cool-off", "800", "--step-millis", "25", "--quiet"));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
    }

    private static void awaitLabels(Path ledger, int labels, Process p) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < end) {
            assertThat(p.isAlive()).as("the demo process is still running").isTrue();
            if (Files.exists(ledger) && Files.readAllLines(ledger).stream().filter(l -> l.contains(" label ")).count() >= labels) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("the demo did not print " + labels + " labels in time");
    }

    private static Worldflow client(Path db) {
        return Worldflow.builder().property("worldflow.local.path", db.toString()).build();
    }

    private static Set<String> completedSteps(Path db) {
        Set<String> out = new HashSet<>();
        try (Worldflow wf = client(db)) {
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

    private static Map<String, RunStatus> runStatuses(Path db) {
        Map<String, RunStatus> out = new HashMap<>();
        try (Worldflow wf = client(db)) {
            for (int i = 1; i <= ORDERS; i++) {
                wf.run("crash-" + i).ifPresent(r -> out.put(r.runId(), r.status()));
            }
        }
        return out;
    }
}
