package io.worldflow;

/**
 * A payload is encrypted under a key this process does not have: one removed from the configured keys, or any key
 * where none is configured. A run whose recorded payload this is held, not failed, until a worker with the key runs
 * it.
 */
public class PayloadKeyException extends SerializationException {

    private final String keyId;

    public PayloadKeyException(String message, String keyId) {
        this(message, keyId, null);
    }

    public PayloadKeyException(String message, String keyId, Throwable cause) {
        super(message, cause);
        this.keyId = keyId;
    }

    /** The id of the key the payload was encrypted under. */
    public String keyId() {
        return keyId;
    }
}
