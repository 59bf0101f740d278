package io.worldflow.event;

import java.time.Instant;

/** A signal wait's time limit passed first. */
public record SignalTimedOut(String runId, long seq, Instant at, String waitId, String name) implements PrimitiveEvent {

    public SignalTimedOut {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return waitId;
    }
}
