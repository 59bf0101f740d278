package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/** The run was created: always the event at seq 0. */
public record WorkflowStarted(String runId, long seq, Instant at, String workflow, Payload input, Instant deadline)
        implements Event {

    public WorkflowStarted {
        Event.check(runId, seq, at);
    }
}
