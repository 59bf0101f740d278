package io.worldflow.event;

import java.time.Instant;

/** A child run was canceled. */
public record ChildWorkflowCanceled(String runId, long seq, Instant at, String childId, String childRunId)
        implements PrimitiveEvent {

    public ChildWorkflowCanceled {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return childId;
    }
}
