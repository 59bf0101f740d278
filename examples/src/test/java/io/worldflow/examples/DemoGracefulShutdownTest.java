package io.worldflow.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM to a worker in the middle of work: it stops claiming, lets in-flight turns finish or hands
 * them back within its grace period, and exits; a restart finishes every run.
 */
class DemoGracefulShutdownTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void sigtermStopsTheWorkerGracefullyAndARestartFinishesEveryRun() throws Exception {
        DemoProcess demo = new DemoProcess(dir);
        Process p = demo.start("term");
        demo.awaitEffects(15, p); // charges under way, no run past its cool-off
        long sent = System.nanoTime();
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(30, TimeUnit.SECONDS))
                .as("the worker exits after SIGTERM")
                .isTrue();
        long tookMillis = (System.nanoTime() - sent) / 1_000_000;
        String out = Files.readString(demo.output("term"));
        assertThat(p.exitValue()).as(out).isEqualTo(143);
        assertThat(out)
                .as("the shutdown went through the worker's graceful stop")
                .containsPattern("worker .* stopped");
        assertThat(tookMillis).as("within the 5 s grace period and a margin").isLessThan(15_000);
        // read the file as SQLite before any world opens it (opening clears leases): nothing is left leased
        assertThat(demo.leasedTurns())
                .as("turns still leased after a graceful stop")
                .isZero();
        assertThat(demo.statuses().values()).as("runs left for the restart").anyMatch(s -> !s.isTerminal());

        Process again = demo.start("again");
        assertThat(again.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(Files.readString(demo.output("again"))).isZero();
        demo.verifyEveryRunFinishedCorrectly();
    }
}
