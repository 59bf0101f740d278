package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/** An attempt of a step succeeded; {@code result} is what it returned. */
public record StepCompleted(String runId, long seq, Instant at, String stepId, int attempt, Payload result)
        implements PrimitiveEvent {

    public StepCompleted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return stepId;
    }
}
