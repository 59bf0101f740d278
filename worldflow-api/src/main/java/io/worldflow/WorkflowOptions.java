package io.worldflow;

import java.util.Objects;

/**
 * Per-workflow settings.
 *
 * @param stepRetry the retry policy of steps that do not name their own
 */
public record WorkflowOptions(RetryPolicy stepRetry) {

    public WorkflowOptions {
        Objects.requireNonNull(stepRetry, "stepRetry");
    }

    public static WorkflowOptions defaults() {
        return new WorkflowOptions(RetryPolicy.defaults());
    }

    public WorkflowOptions withStepRetry(RetryPolicy policy) {
        return new WorkflowOptions(policy);
    }
}
