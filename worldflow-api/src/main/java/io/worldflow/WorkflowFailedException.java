package io.worldflow;

/** The run ended {@link RunStatus#FAILED}; {@link #error()} is what the workflow threw, as recorded. */
public class WorkflowFailedException extends WorldflowException {

    private final String runId;
    private final ErrorInfo error;

    public WorkflowFailedException(String runId, ErrorInfo error) {
        super("run '" + runId + "' failed: " + error.summary());
        this.runId = runId;
        this.error = error;
    }

    public String runId() {
        return runId;
    }

    public ErrorInfo error() {
        return error;
    }
}
