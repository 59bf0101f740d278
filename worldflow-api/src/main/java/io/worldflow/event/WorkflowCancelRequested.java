package io.worldflow.event;

import java.time.Instant;

/** Cancellation was requested at {@code requestedAt} and noticed by the orchestrator. */
public record WorkflowCancelRequested(String runId, long seq, Instant at, String reason, Instant requestedAt)
        implements Event {

    public WorkflowCancelRequested {
        Event.check(runId, seq, at);
    }
}
