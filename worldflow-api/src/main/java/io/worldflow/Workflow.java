package io.worldflow;

import io.worldflow.internal.CurrentContext;
import io.worldflow.internal.StepProxies;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A workflow definition: a name, an input type, and a body. Define one with
 * {@link #define(String, Class, WorkflowFunction)}, or annotate methods with
 * {@link io.worldflow.annotation.WorkflowMethod} and register the object.
 *
 * <p>The static methods are the facade for annotation-style workflow code, which has no {@code ctx}
 * parameter: they act on the context of the run executing on the current thread.
 */
public interface Workflow<I, O> {

    String name();

    Class<I> inputType();

    /** The declared result type, or null when results are decoded from their recorded type. */
    Class<O> outputType();

    WorkflowOptions options();

    O execute(WorkflowContext ctx, I input) throws Exception;

    /** A copy with other options. */
    Workflow<I, O> withOptions(WorkflowOptions options);

    /**
     * A copy whose runs read the signal {@code name} as a {@code type} when it is sent, as
     * {@link WorkflowOptions#withSignalType(String, Class)} declares.
     */
    default Workflow<I, O> withSignalType(String name, Class<?> type) {
        return withOptions(options().withSignalType(name, type));
    }

    static <I, O> Workflow<I, O> define(String name, Class<I> inputType, WorkflowFunction<I, O> body) {
        return new Definition<>(name, inputType, null, WorkflowOptions.defaults(), body);
    }

    static <I, O> Workflow<I, O> define(
            String name, Class<I> inputType, Class<O> outputType, WorkflowFunction<I, O> body) {
        return new Definition<>(
                name, inputType, Objects.requireNonNull(outputType, "outputType"), WorkflowOptions.defaults(), body);
    }

    /** The context of the run executing on this thread. */
    static WorkflowContext context() {
        return CurrentContext.get();
    }

    static <T> T step(String name, StepFunction<T> fn) {
        return context().step(name, fn);
    }

    static void sleep(String name, Duration duration) {
        context().sleep(name, duration);
    }

    static void sleepUntil(String name, Instant until) {
        context().sleepUntil(name, until);
    }

    static <T> Optional<T> awaitSignal(String name, Class<T> type, Duration timeout) {
        return context().awaitSignal(name, type, timeout);
    }

    static <T, R> List<R> parallel(String name, List<T> items, BranchFunction<T, R> fn) {
        return context().parallel(name, items, fn);
    }

    static <I, O> O child(String name, Workflow<I, O> workflow, I input) {
        return context().child(name, workflow, input);
    }

    /**
     * Wraps {@code target} so that each call of a {@link io.worldflow.annotation.Step} method of
     * {@code stepInterface} runs as a step of the current run, with the method's retry policy.
     */
    static <T> T steps(Class<T> stepInterface, T target) {
        return StepProxies.create(stepInterface, target);
    }

    /** The lambda-defined workflow. */
    record Definition<I, O>(
            String name, Class<I> inputType, Class<O> outputType, WorkflowOptions options, WorkflowFunction<I, O> body)
            implements Workflow<I, O> {

        public Definition {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(inputType, "inputType");
            Objects.requireNonNull(options, "options");
            Objects.requireNonNull(body, "body");
            if (name.isBlank() || name.length() > 200) {
                throw new IllegalArgumentException("workflow name must be 1..200 non-blank characters");
            }
        }

        @Override
        public O execute(WorkflowContext ctx, I input) throws Exception {
            return body.apply(ctx, input);
        }

        @Override
        public Workflow<I, O> withOptions(WorkflowOptions value) {
            return new Definition<>(name, inputType, outputType, value, body);
        }
    }
}
