package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunStateException;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPlanTest {

    private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
    private static final ErrorInfo ERR = ErrorInfo.of("com.acme.Declined", "declined");

    private final List<Event> log = new ArrayList<>();

    private RetryPlanTest add(java.util.function.LongFunction<Event> e) {
        log.add(e.apply(log.size()));
        return this;
    }

    private RetryPlanTest started() {
        return add(s -> new WorkflowStarted("r", s, T, "w", Payload.NULL, null));
    }

    private RetryPlanTest step(String id) {
        return add(s -> new StepScheduled("r", s, T, id, Ids.nameOf(id)));
    }

    private RetryPlanTest failed(String id) {
        return add(s -> new StepFailed("r", s, T, id, 1, ERR));
    }

    private RetryPlanTest runFailed() {
        return add(s -> new WorkflowFailed("r", s, T, ERR));
    }

    @Test
    void theLastStepThatFailedIsRetried() {
        started()
                .step("a")
                .add(s -> new StepCompleted("r", s, T, "a", 1, Payload.NULL))
                .step("charge")
                .failed("charge")
                .runFailed();

        assertThat(RetryPlan.failedStep("r", log)).isEqualTo("charge");
    }

    @Test
    void codeThatFailedWithoutAStepFailureIsReplayed() {
        started().step("a").runFailed();

        assertThat(RetryPlan.failedStep("r", log)).isNull();
    }

    @Test
    void siblingBranchesGoingOnAfterABranchFailedDoNotStopTheRetry() {
        started()
                .add(s -> new ParallelStarted("r", s, T, "labels", "labels", 2))
                .step("labels/0/label")
                .step("labels/1/label")
                .failed("labels/0/label")
                .step("labels/1/print")
                .add(s -> new ParallelCompleted("r", s, T, "labels"))
                .add(s -> new MarkerRecorded("r", s, T, "@version:fix", "version", Payload.NULL))
                .runFailed();

        assertThat(RetryPlan.failedStep("r", log)).isEqualTo("labels/0/label");
    }

    @Test
    void aFailureHandledInItsScopeOrAnEnclosingOneIsRefused() {
        started()
                .add(s -> new ParallelStarted("r", s, T, "labels", "labels", 1))
                .step("labels/0/label")
                .failed("labels/0/label")
                .add(s -> new ParallelCompleted("r", s, T, "labels"))
                .step("notify")
                .runFailed();

        assertThatThrownBy(() -> RetryPlan.failedStep("r", log))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("labels/0/label")
                .hasMessageContaining("notify");
    }

    @Test
    void aLogThatDoesNotEndInAFailureIsRefused() {
        started().add(s -> new WorkflowCompleted("r", s, T, Payload.NULL));

        assertThatThrownBy(() -> RetryPlan.failedStep("r", log))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("does not end in a failure");
    }
}
