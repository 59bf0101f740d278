package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/**
 * A signal was consumed by the wait {@code waitId}; it had been sent at {@code sentAt}.
 *
 * @param actor who sent it ({@link io.worldflow.Actors}), or null when not known
 */
public record SignalReceived(
        String runId, long seq, Instant at, String waitId, String name, Payload payload, Instant sentAt, String actor)
        implements PrimitiveEvent {

    public SignalReceived {
        Event.check(runId, seq, at);
    }

    /** A signal whose sender is not known. */
    public SignalReceived(
            String runId, long seq, Instant at, String waitId, String name, Payload payload, Instant sentAt) {
        this(runId, seq, at, waitId, name, payload, sentAt, null);
    }

    @Override
    public String primitiveId() {
        return waitId;
    }
}
