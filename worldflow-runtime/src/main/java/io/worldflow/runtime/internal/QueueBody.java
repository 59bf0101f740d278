package io.worldflow.runtime.internal;

import io.worldflow.QueueSpec;
import io.worldflow.WorldflowException;

import java.time.Instant;
import java.util.List;

/**
 * A queue's limits and who holds its places, as the world keeps it ({@link io.worldflow.spi.StoredQueue#body}): the
 * runs admitted and not yet known to have ended, and the rate limit's schedule ({@code nextStart}: the earliest instant
 * at which the next run may start, which each admission moves on by the limit's interval).
 */
record QueueBody(int v, QueueSpec spec, List<Place> admitted, Instant nextStart) {

    /** The body's own format version. */
    static final int VERSION = 1;

    QueueBody {
        admitted = admitted == null ? List.of() : List.copyOf(admitted);
    }

    /** An admitted run, its key (or null) and when it was admitted, or is to start when admitted ahead of it. */
    record Place(String run, String key, Instant at) {}

    static QueueBody of(QueueSpec spec) {
        return new QueueBody(VERSION, spec, List.of(), null);
    }

    QueueBody withSpec(QueueSpec value) {
        return new QueueBody(v, value, admitted, nextStart);
    }

    QueueBody with(List<Place> places, Instant next) {
        return new QueueBody(v, spec, places, next);
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
