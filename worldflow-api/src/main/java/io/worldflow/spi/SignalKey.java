package io.worldflow.spi;

/** The rule every world applies to a signal's idempotency key. */
public final class SignalKey {

    /** The longest key a world must store. */
    public static final int MAX_LENGTH = 200;

    private SignalKey() {}

    /**
     * @throws IllegalArgumentException when {@code key} is non-null and blank or longer than {@link #MAX_LENGTH}
     */
    public static void check(String key) {
        if (key != null && (key.isBlank() || key.length() > MAX_LENGTH)) {
            throw new IllegalArgumentException("a signal key must be 1.." + MAX_LENGTH + " non-blank characters");
        }
    }
}
