package io.worldflow;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How a run starts. Starting with an id that already exists returns the existing run.
 *
 * @param id          the run id (idempotency key); null for a generated one
 * @param delay       start no earlier than this long after submission; null for none
 * @param availableAt start no earlier than this instant; null for none (wins over {@code delay})
 * @param deadline    past this instant no new step starts and the run fails; null for none
 * @param timeout     like {@code deadline}, relative to submission; null for none
 * @param priority    higher runs are picked up first
 * @param queue       the queue its turns go to
 */
public record StartOptions(
        String id,
        Duration delay,
        Instant availableAt,
        Instant deadline,
        Duration timeout,
        int priority,
        String queue) {

    public static final String DEFAULT_QUEUE = "default";
    public static final int MAX_ID_LENGTH = 200;

    public StartOptions {
        if (id != null) {
            if (id.isBlank() || id.length() > MAX_ID_LENGTH) {
                throw new IllegalArgumentException("run id must be 1.." + MAX_ID_LENGTH + " non-blank characters");
            }
            for (int i = 0; i < id.length(); i++) {
                if (Character.isISOControl(id.charAt(i))) {
                    throw new IllegalArgumentException("run id must not contain control characters: " + id.strip());
                }
            }
        }
        if (delay != null && delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        queue = queue == null ? DEFAULT_QUEUE : queue;
        if (queue.isBlank()) {
            throw new IllegalArgumentException("queue must not be blank");
        }
    }

    public static StartOptions defaults() {
        return new StartOptions(null, null, null, null, null, 0, DEFAULT_QUEUE);
    }

    public static StartOptions id(String id) {
        return defaults().withId(Objects.requireNonNull(id, "id"));
    }

    public StartOptions withId(String value) {
        return new StartOptions(value, delay, availableAt, deadline, timeout, priority, queue);
    }

    public StartOptions withDelay(Duration value) {
        return new StartOptions(id, value, availableAt, deadline, timeout, priority, queue);
    }

    public StartOptions withAvailableAt(Instant value) {
        return new StartOptions(id, delay, value, deadline, timeout, priority, queue);
    }

    public StartOptions withDeadline(Instant value) {
        return new StartOptions(id, delay, availableAt, value, timeout, priority, queue);
    }

    public StartOptions withTimeout(Duration value) {
        return new StartOptions(id, delay, availableAt, deadline, value, priority, queue);
    }

    public StartOptions withPriority(int value) {
        return new StartOptions(id, delay, availableAt, deadline, timeout, value, queue);
    }

    public StartOptions withQueue(String value) {
        return new StartOptions(id, delay, availableAt, deadline, timeout, priority, value);
    }
}
