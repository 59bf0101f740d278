package io.worldflow;

import java.time.Duration;
import java.time.Instant;

/**
 * Waiting for a run's result took longer than the caller allowed; the run itself goes on. When the run is held
 * (its code no longer matches its history), the message says so and why: waiting longer will not help until a
 * worker whose code matches takes it.
 */
public class ResultTimeoutException extends WorldflowException {

    private final transient ErrorInfo held;
    private final Instant heldSince;

    public ResultTimeoutException(String runId, Duration timeout, RunStatus status) {
        super("run '" + runId + "' did not finish within " + timeout + " (status " + status + ")");
        this.held = null;
        this.heldSince = null;
    }

    /** The run as last read: its status and, when it is held, since when and why. */
    public ResultTimeoutException(String runId, Duration timeout, RunInfo run) {
        super("run '" + runId + "' did not finish within " + timeout + " (status " + run.status()
                + (run.isHeld()
                        ? "; held since " + run.heldSince() + ": " + run.held().summary()
                                + "; it goes on once a worker whose code matches its history takes it"
                        : "")
                + ")");
        this.held = run.held();
        this.heldSince = run.heldSince();
    }

    /** Why the run was held when the wait ended, or null when it was not held. */
    public ErrorInfo held() {
        return held;
    }

    /** Since when the run was held when the wait ended, or null when it was not held. */
    public Instant heldSince() {
        return heldSince;
    }
}
