package io.worldflow.testing;

import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** A failing test's runs are printed with their timelines; a passing test's are not. */
class FailureReportTest {

    static final ByteArrayOutputStream PRINTED = new ByteArrayOutputStream();

    static final Workflow<String, String> GREET = Workflow.define("test.greet", String.class, (ctx, in) -> {
        String hi = ctx.step("hello", () -> "hello " + in);
        return ctx.awaitSignal("reply", String.class) + " / " + hi;
    });

    /** Run only through the launcher below (a nested class, which the build's own test run leaves out). */
    static class Example {
        @RegisterExtension
        final WorldflowExtension worldflow = WorldflowExtension.builder()
                .register(GREET)
                .printFailuresTo(new PrintStream(PRINTED, true, StandardCharsets.UTF_8))
                .build();

        @Test
        void fails(TestWorld world) {
            String id = world.start(GREET, "ana").id();
            world.awaitStatus(id, RunStatus.WAITING, Duration.ofSeconds(10));
            throw new AssertionError("the reply never came");
        }

        @Test
        void passes(TestWorld world) {
            world.start(GREET, "bo");
        }
    }

    @Test
    void aFailedTestPrintsEveryRunOfItsWorldWithItsTimeline() {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(
                LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(Example.class))
                        .build(),
                summary);

        assertThat(summary.getSummary().getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getSummary().getTestsSucceededCount()).isEqualTo(1);
        String printed = PRINTED.toString(StandardCharsets.UTF_8);
        assertThat(printed)
                .contains("--- worldflow: the runs of fails(TestWorld) ---")
                .contains("(test.greet) WAITING")
                .contains("WorkflowStarted        test.greet \"ana\"")
                .contains("StepCompleted          hello -> \"hello ana\"")
                .contains("SignalRequested        reply")
                .doesNotContain("passes(TestWorld)")
                .doesNotContain("\"bo\"");
    }
}
