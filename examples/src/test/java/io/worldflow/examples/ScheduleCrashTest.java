package io.worldflow.examples;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleInfo;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a worker with SIGKILL while its schedule fires every second, starts it again, and checks that every fire time
 * from the first to the last started exactly one run: none twice, none lost to the kill (the missed ones are caught up
 * as the schedule's catch-up policy says).
 */
class ScheduleCrashTest {

    private static final int FIRES = 6;

    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void aWorkerKilledBetweenOrDuringFiresLeavesEachFireTimeExactlyOneRun() throws Exception {
        Path db = dir.resolve("ticks.db");
        Path ledger = dir.resolve("ledger.txt");
        List<String> command = ChildJvm.command(
                List.of(), ScheduleCrashMain.class, List.of(db.toString(), ledger.toString(), Integer.toString(FIRES)));

        Process first = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("first.out").toFile())
                .start();
        ChildJvm.awaitLines(ledger, 2, first);
        Thread.sleep(1_300); // into the next fire or two
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).as("killed by SIGKILL").isEqualTo(137);
        Thread.sleep(1_500); // a fire time passes with no worker up

        ChildJvm.Result second = ChildJvm.run(command, dir.resolve("second.out"), Duration.ofSeconds(180));
        assertThat(second.exitValue()).as(second.output()).isZero();
        assertThat(second.output()).contains("fired through");

        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .register(ScheduleCrashMain.TICK)
                .build()) {
            ScheduleInfo info = wf.schedules().describe("ticks");
            List<String> expected = new ArrayList<>();
            // an interval counts from the whole second its schedule was created in
            Instant firstFire = info.createdAt().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            for (Instant t = firstFire; !t.isAfter(info.lastFireAt()); t = t.plusSeconds(1)) {
                expected.add("ticks@" + t);
            }
            List<RunInfo> runs = wf.runs(RunQuery.all().withLimit(500)).runs();
            assertThat(runs)
                    .as("one run per fire time, from the first to the last")
                    .extracting(RunInfo::runId)
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(expected).hasSizeGreaterThanOrEqualTo(FIRES);
            assertThat(runs).extracting(RunInfo::status).containsOnly(RunStatus.COMPLETED);
        }
        assertThat(Files.readAllLines(ledger).stream().distinct())
                .as("every run did its work")
                .hasSizeGreaterThanOrEqualTo(FIRES);
    }
}
