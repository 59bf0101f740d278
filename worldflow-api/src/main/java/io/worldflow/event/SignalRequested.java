package io.worldflow.event;

import java.time.Instant;

/** The workflow began waiting for signal {@code name}; {@code timeoutAt} is null for no limit. */
public record SignalRequested(String runId, long seq, Instant at, String waitId, String name, Instant timeoutAt)
        implements PrimitiveEvent {

    public SignalRequested {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return waitId;
    }
}
