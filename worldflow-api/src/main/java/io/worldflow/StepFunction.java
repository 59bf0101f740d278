package io.worldflow;

/** A step's side effect. It may throw; the step's retry policy decides what happens then. */
@FunctionalInterface
public interface StepFunction<T> {
    T call() throws Exception;
}
