package io.worldflow;

/** A run names a workflow that is not registered with this Worldflow instance. */
public class UnknownWorkflowException extends WorldflowException {

    private final String workflow;

    public UnknownWorkflowException(String workflow, java.util.Collection<String> known) {
        super("unknown workflow '" + workflow + "'; registered: " + known);
        this.workflow = workflow;
    }

    public String workflow() {
        return workflow;
    }
}
