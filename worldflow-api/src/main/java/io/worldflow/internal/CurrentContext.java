package io.worldflow.internal;

import io.worldflow.WorkflowContext;

/** The context of the run executing on the current thread; set by the runtime around workflow code. */
public final class CurrentContext {

    private static final ThreadLocal<WorkflowContext> CURRENT = new ThreadLocal<>();

    private CurrentContext() {}

    public static WorkflowContext get() {
        WorkflowContext ctx = CURRENT.get();
        if (ctx == null) {
            throw new IllegalStateException(
                    "no workflow is executing on this thread: Workflow.* methods " + "work only inside workflow code");
        }
        return ctx;
    }

    /** The context of the run executing on the current thread, or null when there is none. */
    public static WorkflowContext peek() {
        return CURRENT.get();
    }

    public static WorkflowContext swap(WorkflowContext ctx) {
        WorkflowContext previous = CURRENT.get();
        if (ctx == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(ctx);
        }
        return previous;
    }
}
