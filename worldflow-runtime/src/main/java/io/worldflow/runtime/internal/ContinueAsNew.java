package io.worldflow.runtime.internal;

/**
 * Unwinds the workflow's code when it continues as new, carrying the successor's input to the run's end. An
 * {@link Error}, like {@link ExecutionStop}, so that code catching {@code Exception} does not swallow it.
 */
final class ContinueAsNew extends Error {

    final transient Object input;

    ContinueAsNew(Object input) {
        super("continue as new", null, false, false);
        this.input = input;
    }
}
