package io.worldflow;

/** One branch of a parallel fan-out: gets its own context (its own id path) and its item. */
@FunctionalInterface
public interface BranchFunction<T, R> {
    R apply(WorkflowContext branch, T item) throws Exception;
}
