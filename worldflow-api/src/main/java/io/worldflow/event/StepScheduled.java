package io.worldflow.event;

import java.time.Instant;

/** A step was reached for the first time; {@code stepId} is its deterministic id. */
public record StepScheduled(String runId, long seq, Instant at, String stepId, String name) implements PrimitiveEvent {

    public StepScheduled {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return stepId;
    }
}
