package io.worldflow.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
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

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    QueueBody {
        admitted = admitted == null ? List.of() : List.copyOf(admitted);
    }

    /** An admitted run, its key (or null) and when it was admitted. */
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
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new WorldflowException("queue '" + spec.name() + "' cannot be written: " + e.getMessage(), e);
        }
    }

    static QueueBody decode(String name, String body) {
        try {
            QueueBody decoded = JSON.readValue(body, QueueBody.class);
            if (decoded.v() > VERSION) {
                throw new WorldflowException("queue '" + name + "' was written by a newer Worldflow (format "
                        + decoded.v() + ", this one reads up to " + VERSION + ")");
            }
            return decoded;
        } catch (JsonProcessingException e) {
            throw new WorldflowException("queue '" + name + "' cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
