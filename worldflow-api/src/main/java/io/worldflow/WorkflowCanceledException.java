package io.worldflow;

/**
 * The run was canceled. Thrown into workflow code at its next primitive once a cancellation is noticed
 * (the code may catch it to clean up, but no further step starts), and from a run handle's result.
 */
public class WorkflowCanceledException extends CanceledException {

    private final String runId;

    public WorkflowCanceledException(String runId, String reason) {
        super("", "run '" + runId + "' was canceled" + (reason == null || reason.isBlank() ? "" : ": " + reason));
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
