package io.worldflow.event;

import java.time.Instant;

/** A durable sleep ended. */
public record TimerFired(String runId, long seq, Instant at, String timerId) implements PrimitiveEvent {

    public TimerFired {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return timerId;
    }
}
