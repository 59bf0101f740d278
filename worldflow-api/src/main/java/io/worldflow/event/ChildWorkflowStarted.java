package io.worldflow.event;

import java.time.Instant;

/**
 * A child run was started (or found, when its id already existed) for a child primitive.
 *
 * @param parentClosePolicy what becomes of the child when this run ends first ({@link io.worldflow.ParentClosePolicy})
 */
public record ChildWorkflowStarted(
        String runId,
        long seq,
        Instant at,
        String childId,
        String name,
        String childRunId,
        String workflow,
        String parentClosePolicy)
        implements PrimitiveEvent {

    public ChildWorkflowStarted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return childId;
    }
}
