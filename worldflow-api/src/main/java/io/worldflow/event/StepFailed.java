package io.worldflow.event;

import io.worldflow.ErrorInfo;

import java.time.Instant;

/** A step failed for good; the error is thrown into the workflow code. */
public record StepFailed(String runId, long seq, Instant at, String stepId, int attempt, ErrorInfo error)
        implements PrimitiveEvent {

    public StepFailed {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return stepId;
    }
}
