package io.worldflow.runtime.internal;

/** The run cannot go on with this code (its recorded data no longer decodes): it is held, not failed. */
final class HeldException extends RuntimeException {

    HeldException(String message, Throwable cause) {
        super(message, cause);
    }
}
