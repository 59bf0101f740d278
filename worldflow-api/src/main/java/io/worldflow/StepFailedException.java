package io.worldflow;

import java.util.Objects;

/**
 * Thrown into workflow code when a step failed for good: its retries were exhausted or the error was
 * not retryable. The recorded {@link #error()} is what workflow code should branch on: on replay the
 * original exception object is not available, only its recorded type, message and stack trace.
 */
public class StepFailedException extends WorldflowException {

    private final String stepId;
    private final int attempts;
    private final ErrorInfo error;

    public StepFailedException(String stepId, int attempts, ErrorInfo error, Throwable cause) {
        super("step '" + stepId + "' failed after " + attempts + " attempt(s): " + error.summary(), cause);
        this.stepId = Objects.requireNonNull(stepId, "stepId");
        this.attempts = attempts;
        this.error = error;
    }

    public String stepId() {
        return stepId;
    }

    public int attempts() {
        return attempts;
    }

    public ErrorInfo error() {
        return error;
    }

    /** Whether the step's own exception was of the given type (by recorded class name, replay-safe). */
    public boolean isCausedBy(Class<? extends Throwable> type) {
        return error.isA(type);
    }
}
