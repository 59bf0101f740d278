package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/**
 * The run was created: always the event at seq 0.
 *
 * @param deadline when it fails if it has not ended, or null
 * @param parent   the run that started it as a child, which hears of its end; null for a run started otherwise
 */
public record WorkflowStarted(
        String runId, long seq, Instant at, String workflow, Payload input, Instant deadline, String parent)
        implements Event {

    public WorkflowStarted {
        Event.check(runId, seq, at);
    }

    /** A run of no parent. */
    public WorkflowStarted(String runId, long seq, Instant at, String workflow, Payload input, Instant deadline) {
        this(runId, seq, at, workflow, input, deadline, null);
    }
}
