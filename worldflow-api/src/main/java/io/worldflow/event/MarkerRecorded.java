package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/** A recorded value: {@code now}, {@code random}, {@code uuid}, {@code sideEffect} or {@code version}. */
public record MarkerRecorded(String runId, long seq, Instant at, String markerId, String kind, Payload value)
        implements PrimitiveEvent {

    public MarkerRecorded {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return markerId;
    }
}
