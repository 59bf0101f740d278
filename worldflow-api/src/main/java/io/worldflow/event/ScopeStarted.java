package io.worldflow.event;

import java.time.Instant;

/**
 * A scope of the workflow code began: an {@code async} block that runs beside the code that started it, or a
 * {@code detached} one that runs even after its run was canceled. Its primitives' ids begin with {@code scopeId/}; {@code detached} is 1 for a detached scope, else 0.
 */
public record ScopeStarted(String runId, long seq, Instant at, String scopeId, String name, int detached)
        implements PrimitiveEvent {

    public ScopeStarted {
        Event.check(runId, seq, at);
    }

    @Override
    public String primitiveId() {
        return scopeId;
    }
}
