package io.worldflow;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * How a failing step is tried again. Between attempts the run holds no thread: the delay is a durable
 * timer. Exceptions of a {@link #nonRetryable()} type, and {@link NonRetryableException}, fail at once.
 *
 * @param maxAttempts  total attempts including the first, ≥ 1
 * @param backoff      how the delay grows
 * @param initialDelay delay before the second attempt
 * @param maxDelay     upper bound of any delay
 * @param multiplier   growth factor for {@link Backoff#EXPONENTIAL}, ≥ 1
 * @param jitter       fraction 0..1 of the delay added or removed at random
 * @param nonRetryable exception types that fail the step at once
 */
public record RetryPolicy(
        int maxAttempts,
        Backoff backoff,
        Duration initialDelay,
        Duration maxDelay,
        double multiplier,
        double jitter,
        Set<Class<? extends Throwable>> nonRetryable) {

    private static final RetryPolicy DEFAULTS =
            new RetryPolicy(3, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(5), 2.0, 0.1, Set.of());

    public RetryPolicy {
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        if (initialDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("retry delays must not be negative, were initialDelay " + initialDelay
                    + " and maxDelay " + maxDelay);
        }
        if (maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("maxDelay " + maxDelay + " is below initialDelay " + initialDelay);
        }
        if (!(multiplier >= 1.0)) {
            throw new IllegalArgumentException("multiplier must be at least 1, was " + multiplier);
        }
        if (!(jitter >= 0.0 && jitter <= 1.0)) {
            throw new IllegalArgumentException("jitter must be within 0..1, was " + jitter);
        }
        nonRetryable = nonRetryable == null ? Set.of() : Set.copyOf(nonRetryable);
    }

    /** 3 attempts, exponential from 1 s doubling up to 5 min, 10 % jitter. */
    public static RetryPolicy defaults() {
        return DEFAULTS;
    }

    /** A single attempt. */
    public static RetryPolicy none() {
        return DEFAULTS.withMaxAttempts(1);
    }

    /** {@code attempts} tries with a fixed delay and no jitter. */
    public static RetryPolicy fixed(int attempts, Duration delay) {
        return new RetryPolicy(attempts, Backoff.CONSTANT, delay, delay, 1.0, 0.0, Set.of());
    }

    public RetryPolicy withMaxAttempts(int n) {
        return new RetryPolicy(n, backoff, initialDelay, maxDelay, multiplier, jitter, nonRetryable);
    }

    public RetryPolicy withBackoff(Backoff b, Duration initial, Duration max) {
        return new RetryPolicy(maxAttempts, b, initial, max, multiplier, jitter, nonRetryable);
    }

    public RetryPolicy withMultiplier(double m) {
        return new RetryPolicy(maxAttempts, backoff, initialDelay, maxDelay, m, jitter, nonRetryable);
    }

    public RetryPolicy withJitter(double j) {
        return new RetryPolicy(maxAttempts, backoff, initialDelay, maxDelay, multiplier, j, nonRetryable);
    }

    @SafeVarargs
    public final RetryPolicy withNonRetryable(Class<? extends Throwable>... types) {
        return new RetryPolicy(maxAttempts, backoff, initialDelay, maxDelay, multiplier, jitter, Set.of(types));
    }

    /** Whether {@code error}, having ended attempt {@code attempt}, leaves room for another attempt. */
    public boolean shouldRetry(Throwable error, int attempt) {
        if (attempt >= maxAttempts || error instanceof NonRetryableException) {
            return false;
        }
        for (Class<? extends Throwable> type : nonRetryable) {
            if (type.isInstance(error)) {
                return false;
            }
        }
        return true;
    }

    /** The delay after attempt {@code attempt} (1-based) failed, jittered with {@code random}. */
    public Duration delayAfter(int attempt, RandomGenerator random) {
        double base = switch (backoff) {
            case CONSTANT -> initialDelay.toMillis();
            case LINEAR -> (double) initialDelay.toMillis() * attempt;
            case EXPONENTIAL -> initialDelay.toMillis() * Math.pow(multiplier, attempt - 1);
        };
        double capped = Math.min(base, maxDelay.toMillis());
        double spread = capped * jitter;
        double jittered = spread == 0 ? capped : capped - spread + random.nextDouble() * 2 * spread;
        return Duration.ofMillis(Math.max(0, Math.round(Math.min(jittered, maxDelay.toMillis()))));
    }
}
