package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.time.Duration;
import java.util.Objects;

/**
 * Which finished runs a worker deletes in the background, and how: every {@code interval} of the engine's clock it
 * deletes the runs that finished (completed, failed or were canceled) longer than {@code keepFor} ago, {@code batch}
 * at a time. Deleted runs are gone whole: their history, result, signals and entries in every list. The runs of a
 * continue-as-new chain are kept while a later run of the chain is, so that the chain's first id keeps reaching its
 * newest run. By default runs are kept for ever.
 *
 * @param keepFor  how long a finished run is kept, or null to keep runs for ever
 * @param interval how often the worker looks for runs to delete
 * @param batch    how many runs one write to the world deletes at most
 */
public record RetentionOptions(Duration keepFor, Duration interval, int batch) {

    /** How long a finished run is kept ({@code 30d}, {@code P30D}); unset keeps runs for ever. */
    public static final String KEEP_FOR = "worldflow.retention";

    public static final String INTERVAL = "worldflow.retention.interval";
    public static final String BATCH = "worldflow.retention.batch";
    /** The largest batch: a write of more runs would hold its locks, or its request, for long. */
    public static final int MAX_BATCH = 10_000;

    private static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);
    /** The shortest interval: each look is a query of the world by every worker. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

    private static final int DEFAULT_BATCH = 500;

    public RetentionOptions {
        if (keepFor != null && (keepFor.isNegative() || keepFor.isZero())) {
            throw new IllegalArgumentException(
                    "keepFor must be positive (or null to keep runs for ever), was " + keepFor);
        }
        Objects.requireNonNull(interval, "interval");
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("interval must be at least 1s (each look for runs to delete is a query"
                    + " of the world by every worker), was " + interval);
        }
        if (batch < 1 || batch > MAX_BATCH) {
            throw new IllegalArgumentException("batch must be 1.." + MAX_BATCH + ", was " + batch);
        }
    }

    /** Runs kept for ever: the default. */
    public static RetentionOptions keepForever() {
        return new RetentionOptions(null, DEFAULT_INTERVAL, DEFAULT_BATCH);
    }

    /** Finished runs deleted once they are {@code keepFor} old, with the default interval and batch. */
    public static RetentionOptions after(Duration keepFor) {
        return new RetentionOptions(Objects.requireNonNull(keepFor, "keepFor"), DEFAULT_INTERVAL, DEFAULT_BATCH);
    }

    /**
     * The options from {@value #KEEP_FOR}, {@value #INTERVAL} and {@value #BATCH}.
     *
     * @throws ConfigurationException naming the key, when a value is malformed, not positive or out of range
     */
    public static RetentionOptions fromConfig(WorldConfig config) {
        Duration keepFor = config.getDuration(KEEP_FOR, null);
        if (keepFor != null && (keepFor.isNegative() || keepFor.isZero())) {
            throw new ConfigurationException(KEEP_FOR + " must be positive, or unset to keep runs for ever, was '"
                    + config.get(KEEP_FOR).orElse("") + "'");
        }
        return new RetentionOptions(
                keepFor,
                config.getDuration(INTERVAL, DEFAULT_INTERVAL, MIN_INTERVAL, null),
                config.getInt(BATCH, DEFAULT_BATCH, 1, MAX_BATCH));
    }

    /** Whether finished runs are deleted at all. */
    public boolean enabled() {
        return keepFor != null;
    }

    public RetentionOptions withKeepFor(Duration v) {
        return new RetentionOptions(v, interval, batch);
    }

    public RetentionOptions withInterval(Duration v) {
        return new RetentionOptions(keepFor, v, batch);
    }

    public RetentionOptions withBatch(int v) {
        return new RetentionOptions(keepFor, interval, v);
    }
}
