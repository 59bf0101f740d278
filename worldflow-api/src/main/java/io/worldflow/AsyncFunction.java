package io.worldflow;

/** Code that runs in a scope of its own, with its own context (its own id path), beside the code that started it. */
@FunctionalInterface
public interface AsyncFunction<T> {
    T apply(WorkflowContext scope) throws Exception;
}
