package io.worldflow.event;

import java.time.Instant;

/** Every branch of a parallel fan-out ended. */
public record ParallelCompleted(String runId, long seq, Instant at, String parallelId) implements PrimitiveEvent {

    public ParallelCompleted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return parallelId;
    }
}
