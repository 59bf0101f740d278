package io.worldflow.runtime;

import io.worldflow.StepFunction;

import java.util.Objects;

/**
 * Wraps each attempt of every step this process runs: to time it, trace it, or, in tests, answer for it instead of the
 * step's own code. What {@code intercept} returns is the attempt's result, recorded as the step's own would be; what it
 * throws is the attempt's failure, retried by the step's policy. Only attempts that run are intercepted: a step
 * replayed from the log returns its recorded outcome without one.
 *
 * <p>Called on the thread that runs the step's code; it must be safe to call from many at once.
 */
@FunctionalInterface
public interface StepInterceptor {

    /**
     * Runs one attempt: {@code step.call()} runs the step's own code.
     *
     * @return the attempt's result, of the type the step's code returns
     */
    Object intercept(StepCall call, StepFunction<?> step) throws Exception;

    /**
     * One attempt of a step.
     *
     * @param runId    the run it belongs to
     * @param workflow the run's workflow
     * @param stepId   the step's id within the run (its path and occurrence: {@code charge#1})
     * @param name     the step's name, as the workflow code gives it
     * @param attempt  the attempt's number, from 1
     */
    record StepCall(String runId, String workflow, String stepId, String name, int attempt) {

        public StepCall {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(workflow, "workflow");
            Objects.requireNonNull(stepId, "stepId");
            Objects.requireNonNull(name, "name");
        }
    }

    /** Runs every step's own code. */
    static StepInterceptor none() {
        return (call, step) -> step.call();
    }

    /** This interceptor around {@code inner}: {@code step.call()} of this one goes through {@code inner}. */
    default StepInterceptor around(StepInterceptor inner) {
        Objects.requireNonNull(inner, "inner");
        StepInterceptor outer = this;
        return (call, step) -> outer.intercept(call, () -> inner.intercept(call, step));
    }
}
