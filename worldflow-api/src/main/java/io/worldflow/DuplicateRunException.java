package io.worldflow;

/**
 * A run was started with a deduplication id that an active run of its queue holds ({@link StartOptions#dedupId()}),
 * and its options said to refuse it. Nothing was created.
 */
public class DuplicateRunException extends WorldflowException {

    private final String runId;

    public DuplicateRunException(String queue, String dedupId, String runId) {
        super("queue '" + queue + "' has an active run with deduplication id '" + dedupId + "': " + runId);
        this.runId = runId;
    }

    /** The active run that holds the deduplication id. */
    public String runId() {
        return runId;
    }
}
