package io.worldflow;

import java.util.Collection;

/** A run names a workflow that is not registered with this Worldflow instance. */
public class UnknownWorkflowException extends WorldflowException {

    private final String workflow;

    public UnknownWorkflowException(String workflow, Collection<String> known) {
        super("unknown workflow '" + workflow + "'; registered: " + known);
        this.workflow = workflow;
    }

    public String workflow() {
        return workflow;
    }
}
