package io.worldflow.event;

import io.worldflow.ErrorInfo;

import java.time.Instant;

/** A child run failed; {@code error} is what it threw. */
public record ChildWorkflowFailed(
        String runId, long seq, Instant at, String childId, String childRunId, ErrorInfo error)
        implements PrimitiveEvent {

    public ChildWorkflowFailed {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return childId;
    }
}
