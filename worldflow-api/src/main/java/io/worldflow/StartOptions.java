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
 * @param key         its ordering key in a queue with limits: runs of one key start one at a time (or as many as the
 *                    queue's {@link QueueSpec#keyConcurrency()}), in the order they were submitted; null for none
 * @param dedupId     while a run of the queue started with this id has not ended, another start with it is refused or
 *                    returns that run, as {@code returnExisting} says; null for none
 * @param returnExisting with {@code dedupId}: return the active run rather than throw {@link DuplicateRunException}
 * @param searchAttributes the run's search attributes as it starts; empty for none
 */
public record StartOptions(
        String id,
        Duration delay,
        Instant availableAt,
        Instant deadline,
        Duration timeout,
        int priority,
        String queue,
        String key,
        String dedupId,
        boolean returnExisting,
        SearchAttributes searchAttributes) {

    public static final String DEFAULT_QUEUE = "default";
    public static final int MAX_ID_LENGTH = 200;
    public static final int MAX_KEY_LENGTH = 200;

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
        QueueSpec.checkName("queue", queue);
        if (key != null
                && (key.isEmpty()
                        || key.length() > MAX_KEY_LENGTH
                        || key.chars().anyMatch(Character::isISOControl))) {
            throw new IllegalArgumentException(
                    "key must be 1.." + MAX_KEY_LENGTH + " characters without control characters");
        }
        if (dedupId != null && (dedupId.isEmpty() || dedupId.length() > MAX_KEY_LENGTH)) {
            throw new IllegalArgumentException("dedupId must be 1.." + MAX_KEY_LENGTH + " characters");
        }
        searchAttributes = searchAttributes == null ? SearchAttributes.empty() : searchAttributes;
    }

    /** Options without search attributes. */
    public StartOptions(
            String id,
            Duration delay,
            Instant availableAt,
            Instant deadline,
            Duration timeout,
            int priority,
            String queue,
            String key,
            String dedupId,
            boolean returnExisting) {
        this(id, delay, availableAt, deadline, timeout, priority, queue, key, dedupId, returnExisting, null);
    }

    /** Options without an ordering key. */
    public StartOptions(
            String id,
            Duration delay,
            Instant availableAt,
            Instant deadline,
            Duration timeout,
            int priority,
            String queue) {
        this(id, delay, availableAt, deadline, timeout, priority, queue, null, null, false, null);
    }

    public static StartOptions defaults() {
        return new StartOptions(null, null, null, null, null, 0, DEFAULT_QUEUE, null, null, false, null);
    }

    public static StartOptions id(String id) {
        return defaults().withId(Objects.requireNonNull(id, "id"));
    }

    public StartOptions withId(String value) {
        return new StartOptions(
                value,
                delay,
                availableAt,
                deadline,
                timeout,
                priority,
                queue,
                key,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    public StartOptions withDelay(Duration value) {
        return new StartOptions(
                id,
                value,
                availableAt,
                deadline,
                timeout,
                priority,
                queue,
                key,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    public StartOptions withAvailableAt(Instant value) {
        return new StartOptions(
                id, delay, value, deadline, timeout, priority, queue, key, dedupId, returnExisting, searchAttributes);
    }

    public StartOptions withDeadline(Instant value) {
        return new StartOptions(
                id,
                delay,
                availableAt,
                value,
                timeout,
                priority,
                queue,
                key,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    public StartOptions withTimeout(Duration value) {
        return new StartOptions(
                id,
                delay,
                availableAt,
                deadline,
                value,
                priority,
                queue,
                key,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    public StartOptions withPriority(int value) {
        return new StartOptions(
                id,
                delay,
                availableAt,
                deadline,
                timeout,
                value,
                queue,
                key,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    /** Starts in {@code queue}. */
    public static StartOptions queue(String queue) {
        return defaults().withQueue(queue);
    }

    /** The ordering key: runs of one key in a queue with limits start one at a time, in the order submitted. */
    public StartOptions withKey(String value) {
        return new StartOptions(
                id,
                delay,
                availableAt,
                deadline,
                timeout,
                priority,
                queue,
                value,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    /**
     * Refuses the start ({@link DuplicateRunException}) while a run of the queue started with {@code value} has not
     * ended.
     */
    public StartOptions withDedupId(String value) {
        return new StartOptions(
                id, delay, availableAt, deadline, timeout, priority, queue, key, value, false, searchAttributes);
    }

    /** Returns the run of the queue started with {@code value} while it has not ended, rather than starting another. */
    public StartOptions withDedupIdReturningExisting(String value) {
        return new StartOptions(
                id, delay, availableAt, deadline, timeout, priority, queue, key, value, true, searchAttributes);
    }

    public StartOptions withQueue(String value) {
        return new StartOptions(
                id,
                delay,
                availableAt,
                deadline,
                timeout,
                priority,
                value,
                key,
                dedupId,
                returnExisting,
                searchAttributes);
    }

    /** Starts with the search attributes {@code value}, in place of any given before. */
    public StartOptions withSearchAttributes(SearchAttributes value) {
        return new StartOptions(
                id, delay, availableAt, deadline, timeout, priority, queue, key, dedupId, returnExisting, value);
    }

    /** Starts with the search attribute {@code attribute} = {@code value}, besides those given before. */
    public <T> StartOptions withSearchAttribute(SearchKey<T> attribute, T value) {
        return withSearchAttributes(searchAttributes.with(attribute, value));
    }
}
