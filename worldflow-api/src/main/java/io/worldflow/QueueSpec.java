package io.worldflow;

import java.time.Duration;
import java.util.Objects;

/**
 * A queue's limits, stored in the world so that every worker applies the same. A run started in a queue with limits
 * waits (status {@code PENDING}) until the queue admits it; once admitted it runs like any other and holds its place
 * until it ends, sleeping and waiting included.
 *
 * @param name              the queue's name
 * @param concurrency       at most this many runs of the queue admitted and not ended at once, across all workers;
 *                          0 for no limit
 * @param workerConcurrency at most this many turns of the queue executing at once on one worker (a run that sleeps or
 *                          waits holds none); 0 for no limit
 * @param keyConcurrency    at most this many runs of one {@link StartOptions#key() key} admitted at once, in the
 *                          order they were submitted; 1 makes a key's runs one at a time
 * @param rateLimit         at most this many starts per period, across all workers; null for none
 */
public record QueueSpec(String name, int concurrency, int workerConcurrency, int keyConcurrency, RateLimit rateLimit) {

    /** Most runs a queue with limits holds at once. */
    public static final int MAX_CONCURRENCY = 1000;

    /** Longest queue name. */
    public static final int MAX_NAME_LENGTH = 100;

    public QueueSpec {
        checkName("queue name", name);
        if (concurrency < 0 || concurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException(
                    "concurrency must be 0 (no limit) to " + MAX_CONCURRENCY + ", was " + concurrency);
        }
        if (workerConcurrency < 0) {
            throw new IllegalArgumentException(
                    "workerConcurrency must be 0 (no limit) or more, was " + workerConcurrency);
        }
        if (keyConcurrency < 1 || keyConcurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException(
                    "keyConcurrency must be 1 to " + MAX_CONCURRENCY + ", was " + keyConcurrency);
        }
    }

    /** A queue without limits: runs with a key still start one at a time per key. */
    public static QueueSpec named(String name) {
        return new QueueSpec(name, 0, 0, 1, null);
    }

    public QueueSpec withConcurrency(int value) {
        return new QueueSpec(name, value, workerConcurrency, keyConcurrency, rateLimit);
    }

    public QueueSpec withWorkerConcurrency(int value) {
        return new QueueSpec(name, concurrency, value, keyConcurrency, rateLimit);
    }

    public QueueSpec withKeyConcurrency(int value) {
        return new QueueSpec(name, concurrency, workerConcurrency, value, rateLimit);
    }

    /** At most {@code starts} starts per {@code per}, spread evenly. */
    public QueueSpec withRateLimit(int starts, Duration per) {
        return new QueueSpec(name, concurrency, workerConcurrency, keyConcurrency, new RateLimit(starts, per));
    }

    public QueueSpec withoutRateLimit() {
        return new QueueSpec(name, concurrency, workerConcurrency, keyConcurrency, null);
    }

    /** Whether a run started here without a key waits to be admitted (a limit across workers applies to it). */
    public boolean limitsEveryRun() {
        return concurrency > 0 || rateLimit != null;
    }

    /**
     * Checks a queue's name: 1 to {@value #MAX_NAME_LENGTH} characters, each an ASCII letter or digit or one of
     * {@code - _ . :}. A name travels in URLs, configuration lists, metric tags and the names of other systems' queues,
     * where a space, a comma or a slash would mean something else.
     *
     * @param what the name's role, for the message
     */
    public static void checkName(String what, String name) {
        Objects.requireNonNull(name, what);
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(what + " must be 1.." + MAX_NAME_LENGTH + " characters, was "
                    + (name.isEmpty() ? "0 characters" : Quoted.of(name)));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == ':';
            if (!allowed) {
                throw new IllegalArgumentException(what + " " + Quoted.of(name) + " has " + describe(c) + " at index "
                        + i + "; a queue name holds ASCII letters, digits and - _ . : only");
            }
        }
    }

    private static String describe(char c) {
        if (c == ' ') {
            return "a space";
        }
        if (Character.isISOControl(c) || Character.isWhitespace(c)) {
            return String.format("the character U+%04X", (int) c);
        }
        return "'" + c + "'";
    }
}
