package io.worldflow.runtime.internal;

import io.worldflow.CanceledException;
import io.worldflow.WorkflowCanceledException;

/**
 * What a cancellation reaches: the run's root scope, which the run's cancellation cancels; a scope made for a primitive
 * started with an async form or for an async block, which its parent's cancellation reaches and a lost race cancels
 * alone; and a detached scope, which nothing above it reaches, so that cleanup after a cancel still runs.
 */
final class CancelScope {

    /** A scope nothing cancels, for waits that must last whatever is canceled (a fan-out joining its branches). */
    static final CancelScope NONE = new CancelScope(null, null, "");

    private final RunExecution run;
    private final CancelScope parent;
    private final String id;
    private volatile String reason;

    private CancelScope(RunExecution run, CancelScope parent, String id) {
        this.run = run;
        this.parent = parent;
        this.id = id;
    }

    /** The run's root scope: canceled once the run's cancellation is noticed. */
    static CancelScope root(RunExecution run) {
        return new CancelScope(run, null, "");
    }

    /** A scope that nothing above it cancels. */
    static CancelScope detached(String id) {
        return new CancelScope(null, null, id);
    }

    /** A scope within this one, for the primitive or block {@code id}: canceled with this one or alone. */
    CancelScope child(String id) {
        return new CancelScope(null, this, id);
    }

    boolean isCanceled() {
        return reason != null || (run != null && run.canceling()) || (parent != null && parent.isCanceled());
    }

    /** Whether this scope, or one it is within, was canceled by itself (a lost race), not by the run's cancellation. */
    boolean canceledAlone() {
        for (CancelScope s = this; s != null; s = s.parent) {
            if (s.reason != null) {
                return true;
            }
        }
        return false;
    }

    /** Cancels this scope alone (and the scopes within it). */
    void cancel(String why) {
        if (reason == null) {
            reason = why;
        }
    }

    /** What code of a canceled scope is told: the run's cancellation, or this scope's own. */
    CanceledException exception(String runId) {
        for (CancelScope s = this; s != null; s = s.parent) {
            if (s.reason != null) {
                return new CanceledException(s.id, "'" + s.id + "' of run '" + runId + "' was canceled: " + s.reason);
            }
            if (s.run != null && s.run.canceling()) {
                return new WorkflowCanceledException(runId, null);
            }
        }
        return new CanceledException(id, "'" + id + "' of run '" + runId + "' was canceled");
    }
}
