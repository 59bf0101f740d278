package io.worldflow;

/**
 * Replaying a run's history met code that no longer matches it: at some primitive id the log holds
 * another kind or name than what the code now asks for. The run is held (neither failed nor
 * re-executed) with this error visible, so a corrected deploy can resume it.
 */
public class NonDeterministicWorkflowException extends WorldflowException {

    private final String runId;

    public NonDeterministicWorkflowException(String runId, String message) {
        super("run '" + runId + "' no longer matches its history: " + message);
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
