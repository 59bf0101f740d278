package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/** A child run completed; {@code result} is what it returned. */
public record ChildWorkflowCompleted(
        String runId, long seq, Instant at, String childId, String childRunId, Payload result)
        implements PrimitiveEvent {

    public ChildWorkflowCompleted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return childId;
    }
}
