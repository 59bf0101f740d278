package io.worldflow;

import java.time.Duration;
import java.util.Objects;

/**
 * At most {@code starts} runs of a queue start per {@code per}, spread evenly across the period (one every
 * {@code per / starts}) rather than all at its beginning, across every worker of the world.
 *
 * @param starts how many runs may start per period, at least 1
 * @param per    the period, at least a millisecond, and at least a microsecond per start
 */
public record RateLimit(int starts, Duration per) {

    /** The shortest time between two starts: a rate limit beyond it limits nothing a world could do. */
    private static final Duration SHORTEST_INTERVAL = Duration.ofNanos(1_000);

    public RateLimit {
        if (starts < 1) {
            throw new IllegalArgumentException("rate limit starts must be at least 1, was " + starts);
        }
        Objects.requireNonNull(per, "rate limit period");
        if (per.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("rate limit period must be at least 1ms, was " + per);
        }
        if (per.dividedBy(starts).compareTo(SHORTEST_INTERVAL) < 0) {
            throw new IllegalArgumentException("a rate limit of " + starts + " starts per " + per
                    + " would start one every " + per.dividedBy(starts).toNanos()
                    + "ns; the interval between starts must be at least 1µs (1,000,000 starts per second)");
        }
    }

    /** The time between two starts. */
    public Duration interval() {
        return per.dividedBy(starts);
    }
}
