package io.worldflow.event;

import java.time.Instant;

/**
 * A primitive started with an async form, or an async scope, was canceled before it finished (it lost a race):
 * nothing more is recorded for it, a timer of it no longer fires, a signal wait of it takes no signal, a step of it
 * was interrupted, a child of it was asked to cancel as its parent-close policy says.
 */
public record PrimitiveCanceled(String runId, long seq, Instant at, String primitiveId, String reason)
        implements PrimitiveEvent {

    public PrimitiveCanceled {
        Event.check(runId, seq, at);
    }
}
