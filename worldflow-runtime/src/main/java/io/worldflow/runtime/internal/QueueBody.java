package io.worldflow.runtime.internal;

import io.worldflow.QueueSpec;
import io.worldflow.WorldflowException;

import java.time.Instant;
import java.util.List;

/**
 * A queue's limits and who holds its places, as the world keeps it ({@link io.worldflow.spi.StoredQueue#body}): the
 * runs admitted and not yet known to have ended, the rate limit's schedule ({@code nextStart}: the earliest instant
 * at which the next run may start, which each admission moves on by the limit's interval), and who last set the limits
 * and when ({@code changedBy}, {@code changedAt}; null for a queue no one has defined, and in bodies written before
 * they were kept). A body of this version with fields it does not know is read by ignoring them, so that workers of an
 * earlier release still read it.
 */
record QueueBody(int v, QueueSpec spec, List<Place> admitted, Instant nextStart, String changedBy, Instant changedAt) {

    /** The body's own format version. */
    static final int VERSION = 1;

    QueueBody {
        admitted = admitted == null ? List.of() : List.copyOf(admitted);
    }

    /** An admitted run, its key (or null) and when it was admitted, or is to start when admitted ahead of it. */
    record Place(String run, String key, Instant at) {}

    static QueueBody of(QueueSpec spec) {
        return new QueueBody(VERSION, spec, List.of(), null, null, null);
    }

    /** The body with limits {@code value}, set by {@code who} at {@code at}; its places are kept. */
    QueueBody withSpec(QueueSpec value, String who, Instant at) {
        return new QueueBody(v, value, admitted, nextStart, who, at);
    }

    QueueBody with(List<Place> places, Instant next) {
        return new QueueBody(v, spec, places, next, changedBy, changedAt);
    }

    String encode() {
        return StoredText.write(this, "queue '" + spec.name() + "'");
    }

    static QueueBody decode(String name, String body) {
        QueueBody decoded = StoredText.read(body, QueueBody.class, "queue '" + name + "'");
        if (decoded.v() > VERSION) {
            throw new WorldflowException("queue '" + name + "' was written by a newer Worldflow (format " + decoded.v()
                    + ", this one reads up to " + VERSION + ")");
        }
        return decoded;
    }
}
