package io.worldflow.event;

import java.time.Instant;

/** The run ended canceled. */
public record WorkflowCanceled(String runId, long seq, Instant at) implements Event {

    public WorkflowCanceled {
        Event.check(runId, seq, at);
    }
}
