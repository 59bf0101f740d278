package io.worldflow;

/** The run has already finished, so it cannot take what was sent to it (a signal, a cancellation). */
public class RunFinishedException extends RunStateException {

    private final String runId;
    private final RunStatus status;

    public RunFinishedException(String runId, RunStatus status, String action) {
        super("cannot " + action + ": run '" + runId + "' has already finished (" + status + ")");
        this.runId = runId;
        this.status = status;
    }

    public String runId() {
        return runId;
    }

    public RunStatus status() {
        return status;
    }
}
