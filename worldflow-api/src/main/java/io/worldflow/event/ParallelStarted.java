package io.worldflow.event;

import java.time.Instant;

/** A parallel fan-out of {@code branches} branches began. */
public record ParallelStarted(String runId, long seq, Instant at, String parallelId, String name, int branches)
        implements PrimitiveEvent {

    public ParallelStarted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return parallelId;
    }
}
