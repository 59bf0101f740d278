package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/** A signal was consumed by the wait {@code waitId}; it had been sent at {@code sentAt}. */
public record SignalReceived(
        String runId, long seq, Instant at, String waitId, String name, Payload payload, Instant sentAt)
        implements PrimitiveEvent {

    public SignalReceived {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return waitId;
    }
}
