package io.worldflow;

import java.util.Objects;

/**
 * Thrown into a parent's workflow code when its child run failed or was canceled. The recorded {@link #error()} is
 * what to branch on: on replay only the child's recorded error is available.
 */
public class ChildWorkflowFailedException extends WorldflowException {

    private final String childRunId;
    private final String workflow;
    private final ErrorInfo error;
    private final boolean canceled;

    public ChildWorkflowFailedException(String childRunId, String workflow, ErrorInfo error, boolean canceled) {
        super("child run '" + childRunId + "' of workflow '" + workflow + "' "
                + (canceled ? "was canceled" : "failed: " + error.summary()));
        this.childRunId = Objects.requireNonNull(childRunId, "childRunId");
        this.workflow = workflow;
        this.error = error;
        this.canceled = canceled;
    }

    public String childRunId() {
        return childRunId;
    }

    public String workflow() {
        return workflow;
    }

    /** What the child threw, as recorded; for a canceled child, the cancellation. */
    public ErrorInfo error() {
        return error;
    }

    /** Whether the child was canceled rather than failed. */
    public boolean isCanceled() {
        return canceled;
    }
}
