package io.worldflow.event;

import io.worldflow.ErrorInfo;

import java.time.Instant;

/** The workflow threw, or passed its deadline. */
public record WorkflowFailed(String runId, long seq, Instant at, ErrorInfo error) implements Event {

    public WorkflowFailed {
        Event.check(runId, seq, at);
    }
}
