package io.worldflow;

/**
 * An attempt of a step ran past its {@linkplain StepOptions#timeout() timeout}, went longer than its
 * {@linkplain StepOptions#heartbeatTimeout() heartbeat timeout} without heartbeating, or was still running when its
 * run's deadline passed. Its thread was interrupted; the attempt counts as failed and is retried by the step's policy.
 */
public class StepTimeoutException extends WorldflowException {

    public StepTimeoutException(String message) {
        super(message);
    }
}
