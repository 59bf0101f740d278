package io.worldflow;

/**
 * A world (the storage and delivery behind Worldflow) failed. {@link #isTransient()} says whether the
 * same call may succeed if tried again (a lost connection, a busy database) or not (a corrupt file).
 */
public class WorldException extends WorldflowException {

    private final boolean transientFailure;

    public WorldException(String message, boolean transientFailure, Throwable cause) {
        super(message, cause);
        this.transientFailure = transientFailure;
    }

    public boolean isTransient() {
        return transientFailure;
    }
}
