package io.worldflow.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the README demo in a child JVM, kills it with SIGKILL twice while orders are in flight, starts
 * it again, and checks what a user relies on: every run finishes, no completed step runs again, no
 * timer is lost or fires twice, no signal is lost.
 */
class DemoCrashRecoveryTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void aKilledDemoResumesEveryRunWithoutRepeatingCompletedSteps() throws Exception {
        DemoProcess demo = new DemoProcess(dir);
        int[] killAtLabels = {3, 40};
        for (int round = 0; round < killAtLabels.length; round++) {
            Process p = demo.start("kill" + round);
            demo.awaitLabels(killAtLabels[round], p);
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("killed by SIGKILL").isEqualTo(137);
            if (round == 0) {
                assertThat(demo.leasedTurns())
                        .as("a killed worker leaves its turns leased")
                        .isPositive();
            }
            assertThat(demo.completedSteps())
                    .as("some steps completed before kill " + round)
                    .isNotEmpty();
        }
        assertThat(demo.statuses().values())
                .as("runs still in flight after the kills")
                .anyMatch(s -> !s.isTerminal());

        Process last = demo.start("final");
        assertThat(last.waitFor(180, TimeUnit.SECONDS))
                .as("the restarted demo finishes")
                .isTrue();
        String out = Files.readString(demo.output("final"));
        assertThat(last.exitValue()).as(out).isZero();
        assertThat(out).contains("COMPLETED=" + DemoProcess.ORDERS);
        demo.verifyEveryRunFinishedCorrectly();
    }
}
