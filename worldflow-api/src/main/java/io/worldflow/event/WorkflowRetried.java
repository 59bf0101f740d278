package io.worldflow.event;

import java.time.Instant;

/**
 * A failed run was reopened to run again. Its earlier {@code WorkflowFailed} no longer ends it, and when
 * {@code stepId} is set, the final failure of that step is voided: replay runs the step again, with a fresh
 * retry budget, while everything recorded before it keeps its outcome.
 *
 * @param stepId the step whose failure ended the run, or null when the workflow code itself failed
 * @param reason why, as given by whoever asked; may be null
 * @param actor  who asked ({@link io.worldflow.Actors}), or null when not known
 */
public record WorkflowRetried(String runId, long seq, Instant at, String stepId, String reason, String actor)
        implements Event {

    public WorkflowRetried {
        Event.check(runId, seq, at);
    }

    /** A retry whose asker is not known. */
    public WorkflowRetried(String runId, long seq, Instant at, String stepId, String reason) {
        this(runId, seq, at, stepId, reason, null);
    }
}
