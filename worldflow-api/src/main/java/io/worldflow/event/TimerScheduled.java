package io.worldflow.event;

import java.time.Instant;

/** A durable sleep began; it ends at or after {@code fireAt}. */
public record TimerScheduled(String runId, long seq, Instant at, String timerId, String name, Instant fireAt)
        implements PrimitiveEvent {

    public TimerScheduled {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return timerId;
    }
}
