package io.worldflow.event;

import io.worldflow.ErrorInfo;

import java.time.Instant;

/** An attempt failed and the step will be tried again at {@code retryAt}. */
public record StepRetrying(
        String runId, long seq, Instant at, String stepId, int attempt, ErrorInfo error, Instant retryAt)
        implements PrimitiveEvent {

    public StepRetrying {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return stepId;
    }
}
