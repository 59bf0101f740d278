package io.worldflow.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo run again on the database of an earlier run reports its own runs, not the earlier run's too. */
class DemoRerunTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aSecondRunOnTheSameDatabaseCountsOnlyItsOwnRuns() throws Exception {
        List<String> properties =
                List.of("-Dworldflow.local.path=" + dir.resolve("demo.db"), "-Dworldflow.dashboard.port=0");
        List<String> args = List.of("--orders", "2", "--cool-off", "100", "--step-millis", "5", "--quiet");
        ChildJvm.Result first = ChildJvm.run(
                ChildJvm.command(properties, OrderFulfilmentMain.class, args),
                dir.resolve("first.out"),
                Duration.ofSeconds(50));
        ChildJvm.Result second = ChildJvm.run(
                ChildJvm.command(properties, OrderFulfilmentMain.class, args),
                dir.resolve("second.out"),
                Duration.ofSeconds(50));

        assertThat(first.exitValue()).as(first.output()).isZero();
        assertThat(second.exitValue()).as(second.output()).isZero();
        assertThat(first.output()).contains("COMPLETED=2");
        assertThat(second.output())
                .as("the second run's counts")
                .doesNotContain("COMPLETED=4")
                .contains("COMPLETED=2");
    }
}
