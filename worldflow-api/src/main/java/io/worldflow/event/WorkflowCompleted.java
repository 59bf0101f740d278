package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/** The workflow returned; {@code output} is its result. */
public record WorkflowCompleted(String runId, long seq, Instant at, Payload output) implements Event {

    public WorkflowCompleted {
        Event.check(runId, seq, at);
    }
}
