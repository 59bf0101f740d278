package io.worldflow;

import java.util.Objects;

/**
 * A value that is never stored, shown or logged in clear: a card number, a password, a person's data. Put it in a
 * workflow's input, a step's result, a signal, anywhere in a payload, and the codec stores it encrypted with the
 * payload keys ({@code worldflow.encryption.keys}), whether or not whole payloads are encrypted; the dashboard, the HTTP
 * API and their exports show {@value #MASK} in its place, except to an admin; its {@link #toString} is {@value #MASK},
 * so a log line or an exception message that prints it shows nothing of it. Workflow code reads it with {@link #value}.
 *
 * @param value the value in clear; not null
 * @param <T>   its type, any type a payload may hold
 */
public record Secret<T>(T value) {

    /** What is shown in a secret's place. */
    public static final String MASK = "•••";

    public Secret {
        Objects.requireNonNull(value, "value");
    }

    public static <T> Secret<T> of(T value) {
        return new Secret<>(value);
    }

    @Override
    public String toString() {
        return MASK;
    }
}
