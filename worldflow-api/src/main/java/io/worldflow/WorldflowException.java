package io.worldflow;

/**
 * The root of every exception Worldflow throws. Unchecked; the cause is always chained.
 */
public class WorldflowException extends RuntimeException {

    public WorldflowException(String message) {
        super(message);
    }

    public WorldflowException(String message, Throwable cause) {
        super(message, cause);
    }
}
