package io.worldflow.event;

import java.time.Instant;

/**
 * Cancellation was requested at {@code requestedAt} and noticed by the orchestrator; with {@code terminate}, the run
 * was terminated: it ended without running any more of its code.
 *
 * @param actor who asked ({@link io.worldflow.Actors}), or null when not known
 */
public record WorkflowCancelRequested(
        String runId, long seq, Instant at, String reason, Instant requestedAt, boolean terminate, String actor)
        implements Event {

    public WorkflowCancelRequested {
        Event.check(runId, seq, at);
    }

    /** A request whose asker is not known. */
    public WorkflowCancelRequested(
            String runId, long seq, Instant at, String reason, Instant requestedAt, boolean terminate) {
        this(runId, seq, at, reason, requestedAt, terminate, null);
    }

    /** A cancellation, which the run's code was told of. */
    public WorkflowCancelRequested(String runId, long seq, Instant at, String reason, Instant requestedAt) {
        this(runId, seq, at, reason, requestedAt, false, null);
    }
}
