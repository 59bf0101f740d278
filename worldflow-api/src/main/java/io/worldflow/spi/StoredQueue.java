package io.worldflow.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * A queue's settings and state as a world keeps them. The world stores {@code body} as it is given (the runtime writes
 * and reads it); {@code version} orders the queue's writes, for {@link QueueStore#replace}.
 *
 * @param name      the queue's name
 * @param body      the queue's limits and who holds its slots, as text the world does not read
 * @param version   1 when created, one more at each replace
 * @param updatedAt when it was last written
 */
public record StoredQueue(String name, String body, long version, Instant updatedAt) {

    /** Longest name a world stores. */
    public static final int MAX_NAME_LENGTH = 200;

    public StoredQueue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "queue name must be 1.." + MAX_NAME_LENGTH + " characters and not blank, was '" + name + "'");
        }
        if (version < 1) {
            throw new IllegalArgumentException("queue version must be at least 1, was " + version);
        }
    }

    /** The next version of this queue: what a {@link QueueStore#replace} writes. */
    public StoredQueue next(String newBody, Instant now) {
        return new StoredQueue(name, newBody, version + 1, now);
    }
}
