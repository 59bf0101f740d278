package io.worldflow.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run that sleeps leaves nothing of itself in its worker's memory once its turn has ended: the world brings it back
 * when it is due. Measured in a JVM of its own, so that no other test's objects are counted.
 */
class SleepersHeapTest {

    private static final int RUNS = 20_000;

    @Test
    void aWorkerHoldsNothingPerSleepingRun(@TempDir Path dir) throws Exception {
        List<String> command = ChildJvm.command(
                List.of("-Xmx256m"),
                SleepersHeapMain.class,
                List.of(dir.resolve("sleepers.db").toString(), "500", Integer.toString(RUNS)));

        ChildJvm.Result result = ChildJvm.run(command, dir.resolve("out.txt"), Duration.ofMinutes(4));

        assertThat(result.exitValue()).as(result.output()).isZero();
        Matcher m = Pattern.compile("heap per sleeping run: (-?\\d+)").matcher(result.output());
        assertThat(m.find()).as(result.output()).isTrue();
        // a run's in-memory state is kilobytes (its history, its turn); what is left is the worker's note of when the
        // next runs are due, tens of bytes each
        assertThat(Long.parseLong(m.group(1)))
                .as("bytes of heap per sleeping run")
                .isLessThan(400);
    }
}
