package io.worldflow;

/** No run with the given id exists. */
public class RunNotFoundException extends WorldflowException {

    private final String runId;

    public RunNotFoundException(String runId) {
        super("run '" + runId + "' does not exist");
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
