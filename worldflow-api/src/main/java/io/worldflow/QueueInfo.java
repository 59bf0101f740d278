package io.worldflow;

import java.time.Instant;
import java.util.Objects;

/**
 * A queue with limits as it stands.
 *
 * @param spec      its limits
 * @param waiting   runs waiting to be admitted (counted up to {@link #COUNT_LIMIT}; more show as that many)
 * @param running   runs admitted and not yet ended (under a rate limit, a run may be admitted up to 400 ms before its
 *     start)
 * @param throttled of the waiting runs, those whose start time has come: held back by the limits alone
 * @param updatedAt when the queue's limits or admissions last changed
 * @param changedBy who last set its limits ({@link Actors}), or null when no one has (a queue a run's start made) or
 *     it was set before this was kept
 * @param changedAt when its limits were last set, or null as for {@code changedBy}
 */
public record QueueInfo(
        QueueSpec spec,
        int waiting,
        int running,
        int throttled,
        Instant updatedAt,
        String changedBy,
        Instant changedAt) {

    /** Most waiting runs a description counts. */
    public static final int COUNT_LIMIT = 1000;

    public QueueInfo {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** A queue whose limits' author is not known. */
    public QueueInfo(QueueSpec spec, int waiting, int running, int throttled, Instant updatedAt) {
        this(spec, waiting, running, throttled, updatedAt, null, null);
    }

    public String name() {
        return spec.name();
    }
}
