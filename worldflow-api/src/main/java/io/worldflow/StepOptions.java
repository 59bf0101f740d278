package io.worldflow;

import java.util.Objects;

/**
 * How one step runs.
 *
 * @param retry      its retry policy; null means the workflow's default
 * @param atMostOnce when true the step's start is made durable before it executes, and a step found
 *                   started but unfinished after a crash fails instead of running again
 */
public record StepOptions(RetryPolicy retry, boolean atMostOnce) {

    private static final StepOptions DEFAULTS = new StepOptions(null, false);

    public static StepOptions defaults() {
        return DEFAULTS;
    }

    public static StepOptions retry(RetryPolicy policy) {
        return new StepOptions(Objects.requireNonNull(policy, "policy"), false);
    }

    public StepOptions withRetry(RetryPolicy policy) {
        return new StepOptions(policy, atMostOnce);
    }

    public StepOptions withAtMostOnce(boolean value) {
        return new StepOptions(retry, value);
    }
}
