package io.worldflow.event;

import java.time.Instant;

/** An attempt of a step began executing. */
public record StepStarted(String runId, long seq, Instant at, String stepId, int attempt) implements PrimitiveEvent {

    public StepStarted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return stepId;
    }
}
