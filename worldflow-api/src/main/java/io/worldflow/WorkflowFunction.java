package io.worldflow;

/** The body of a workflow: ordinary code whose side effects all go through {@code ctx}. */
@FunctionalInterface
public interface WorkflowFunction<I, O> {
    O apply(WorkflowContext ctx, I input) throws Exception;
}
