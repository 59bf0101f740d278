package io.worldflow;

/** Thrown by a step to say that trying again cannot help: the step fails at once, without retries. */
public class NonRetryableException extends WorldflowException {

    public NonRetryableException(String message) {
        super(message);
    }

    public NonRetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}
