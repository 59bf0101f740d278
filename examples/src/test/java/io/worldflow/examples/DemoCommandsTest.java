package io.worldflow.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each demo the README tells a newcomer to run, run as its own JVM the way its Maven profile runs it
 * ({@code exec:java} waits for every non-daemon thread, as a JVM does before it exits): it prints its results,
 * ends by itself with status 0, and the JDK prints no warning about native access or {@code sun.misc.Unsafe}.
 * Small order counts and short cool-offs keep each well under a minute.
 */
class DemoCommandsTest {

    private static final Duration LIMIT = Duration.ofSeconds(90);
    private static final List<String> FEW_QUICK_ORDERS =
            List.of("--orders", "2", "--cool-off", "200", "--step-millis", "5");

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void theLocalDemoPrintsItsResultsAndExits() throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                ChildJvm.command(
                        List.of("-Dworldflow.local.path=" + dir.resolve("demo.db"), "-Dworldflow.dashboard.port=0"),
                        OrderFulfilmentMain.class,
                        FEW_QUICK_ORDERS),
                dir.resolve("local.out"),
                LIMIT);

        assertExitedCleanly(r);
        assertThat(r.output()).contains("world 'local'", "event timeline of order-", "runs by status: {COMPLETED=2}");
        assertThat(r.output().lines().filter(l -> l.contains("status=shipped"))).hasSize(2);
    }

    @Test
    @Timeout(120)
    void theQuickstartPrintsItsGreetingAndExits() throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                ChildJvm.command(
                        List.of("-Dworldflow.local.path=" + dir.resolve("quick.db")), QuickstartMain.class, List.of()),
                dir.resolve("quickstart.out"),
                LIMIT);

        assertExitedCleanly(r);
        assertThat(r.output()).contains("Hello, ADA!", "WorkflowCompleted");
    }

    @Test
    @Timeout(120)
    void thePostgresDemoOnItsEmbeddedServerPrintsItsResultsAndExits() throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                ChildJvm.command(List.of("-Dworldflow.dashboard.port=0"), PostgresDemoMain.class, FEW_QUICK_ORDERS),
                dir.resolve("postgres.out"),
                LIMIT);

        assertExitedCleanly(r);
        assertThat(r.output())
                .contains(
                        "embedded PostgreSQL on port",
                        "world 'postgres'",
                        "event timeline of order-",
                        "runs by status: {COMPLETED=2}");
        assertThat(r.output().lines().filter(l -> l.contains("status=shipped"))).hasSize(2);
        long port = Long.parseLong(r.output().replaceAll("(?s).*embedded PostgreSQL on port (\\d+).*", "$1"));
        assertThat(ProcessHandle.allProcesses()
                        .filter(p -> p.info().commandLine().orElse("").contains("-p " + port)))
                .as("the server the demo started is stopped")
                .isEmpty();
    }

    @Test
    @Timeout(120)
    void theAwsDemoOnItsInProcessEmulatorsPrintsItsResultsAndExits() throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                ChildJvm.command(List.of("-Dworldflow.dashboard.port=0"), AwsDemoMain.class, FEW_QUICK_ORDERS),
                dir.resolve("aws.out"),
                LIMIT);

        assertExitedCleanly(r);
        assertThat(r.output())
                .contains(
                        "DynamoDB Local on port",
                        "world 'aws'",
                        "event timeline of order-",
                        "runs by status: {COMPLETED=2}");
        assertThat(r.output().lines().filter(l -> l.contains("status=shipped"))).hasSize(2);
    }

    static void assertExitedCleanly(ChildJvm.Result r) {
        assertThat(r.exitValue()).as(r.output()).isZero();
        assertThat(r.output())
                .as("JDK warnings in the output")
                .doesNotContain(ChildJvm.RESTRICTED_METHOD, ChildJvm.UNSAFE);
    }
}
