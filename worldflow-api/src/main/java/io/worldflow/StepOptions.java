package io.worldflow;

import java.time.Duration;
import java.util.Objects;

/**
 * How one step runs.
 *
 * @param retry            its retry policy; null means the workflow's default
 * @param atMostOnce       when true the step's start is made durable before it executes, and a step found started but
 *                         unfinished after a crash fails instead of running again
 * @param timeout          the longest one attempt may take, from its start to its end (null: no limit): past it the
 *                         attempt's thread is interrupted and the attempt fails with a {@link StepTimeoutException},
 *                         retried by the policy; the run goes on even if the step's code ignores the interrupt, and
 *                         whatever that code returns later is never recorded
 * @param heartbeatTimeout the longest an attempt may go without {@link WorkflowContext#heartbeat heartbeating} (null:
 *                         no limit), so that a long step that hangs is noticed long before its timeout
 */
public record StepOptions(RetryPolicy retry, boolean atMostOnce, Duration timeout, Duration heartbeatTimeout) {

    private static final StepOptions DEFAULTS = new StepOptions(null, false);

    public StepOptions {
        positive("timeout", timeout);
        positive("heartbeatTimeout", heartbeatTimeout);
    }

    /** Options with no time limit. */
    public StepOptions(RetryPolicy retry, boolean atMostOnce) {
        this(retry, atMostOnce, null, null);
    }

    private static void positive(String what, Duration d) {
        if (d != null && (d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException("a step's " + what + " must be positive, was " + d);
        }
    }

    public static StepOptions defaults() {
        return DEFAULTS;
    }

    public static StepOptions retry(RetryPolicy policy) {
        return new StepOptions(Objects.requireNonNull(policy, "policy"), false);
    }

    public StepOptions withRetry(RetryPolicy policy) {
        return new StepOptions(policy, atMostOnce, timeout, heartbeatTimeout);
    }

    public StepOptions withAtMostOnce(boolean value) {
        return new StepOptions(retry, value, timeout, heartbeatTimeout);
    }

    /** @param value the longest one attempt may take (null: no limit) */
    public StepOptions withTimeout(Duration value) {
        return new StepOptions(retry, atMostOnce, value, heartbeatTimeout);
    }

    /** @param value the longest an attempt may go without heartbeating (null: no limit) */
    public StepOptions withHeartbeatTimeout(Duration value) {
        return new StepOptions(retry, atMostOnce, timeout, value);
    }
}
