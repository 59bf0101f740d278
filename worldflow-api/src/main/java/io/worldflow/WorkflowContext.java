package io.worldflow;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * What workflow code may do. Every method is a primitive with a deterministic id taken from its name
 * and its place in the code; its outcome is recorded in the run's event log and returned from the log
 * on replay. Workflow code must reach the outside world only through these methods.
 */
public interface WorkflowContext {

    /** The run's id. */
    String runId();

    /** The workflow's name. */
    String workflowName();

    /**
     * Runs {@code fn} as a step with the workflow's default retry policy and returns its result. A
     * step that completed is never run again for this run; its recorded result is returned instead.
     *
     * @throws StepFailedException when its attempts are exhausted or its error is not retryable
     */
    <T> T step(String name, StepFunction<T> fn);

    /** Runs {@code fn} as a step with the given options. */
    <T> T step(String name, StepOptions options, StepFunction<T> fn);

    /** Within a step: its attempt number, from 1. Outside a step: 1. */
    int attempt();

    /**
     * Within a step: {@code runId:stepId:attempt}, for making the step's effect exactly-once downstream.
     *
     * @throws IllegalStateException outside a step
     */
    String idempotencyKey();

    /**
     * Within a step: notes that the step is making progress, which resets its {@linkplain
     * StepOptions#heartbeatTimeout() heartbeat timeout}; {@code details} (may be null), the last ones given, are named
     * in the error of an attempt that times out.
     *
     * @throws IllegalStateException outside a step
     */
    void heartbeat(Object details);

    /**
     * Within a step: the time its attempt has left before its timeout or its run's deadline, whichever comes first;
     * empty when neither limits it.
     *
     * @throws IllegalStateException outside a step
     */
    Optional<Duration> stepTimeLeft();

    /** Sleeps durably: the run holds no thread meanwhile, and a restart does not lose the timer. */
    void sleep(String name, Duration duration);

    /** Sleeps durably until {@code until} (at or after it, never before). */
    void sleepUntil(String name, Instant until);

    /**
     * Waits for the signal {@code name}; empty when {@code timeout} passes first, and also for a signal sent without a
     * payload (null). Signals sent before the wait are buffered and consumed in arrival order.
     */
    <T> Optional<T> awaitSignal(String name, Class<T> type, Duration timeout);

    /** Waits for the signal {@code name} with no time limit; null for a signal sent without a payload. */
    <T> T awaitSignal(String name, Class<T> type);

    /**
     * Runs {@code fn} once per item, concurrently, each branch with its own id path
     * ({@code name/index/...}), and returns the results in item order. If branches fail, the first
     * failing branch's exception (by index) is thrown after all branches have ended.
     */
    <T, R> List<R> parallel(String name, List<T> items, BranchFunction<T, R> fn);

    /** {@link #parallel(String, List, BranchFunction)} with a concurrency limit. */
    <T, R> List<R> parallel(String name, List<T> items, ParallelOptions options, BranchFunction<T, R> fn);

    /**
     * Starts a run of {@code workflow} as a child of this run and returns its result, holding no thread while it
     * runs: its end wakes this run as a signal would. The child's run id is this run's id and the primitive's path
     * unless the options give one, so a replay finds the same child and never starts a second. The child may run
     * on any worker that registers its workflow, on any queue.
     *
     * @throws ChildWorkflowFailedException when the child fails or is canceled
     * @throws WorldflowException           when the child's id already belongs to a run of another workflow
     */
    <I, O> O child(String name, Workflow<I, O> workflow, I input, ChildOptions options);

    /** {@link #child(String, Workflow, Object, ChildOptions)} with the default options. */
    <I, O> O child(String name, Workflow<I, O> workflow, I input);

    /**
     * Polls an outside state until it is ready: runs {@code check} as a step (named {@code name}, with the step
     * retry policy of the workflow's options, three attempts unless they set one) until it returns a value other than
     * null, and returns that value. Between checks the run sleeps durably (timers named {@code name + "-pause"}),
     * holding no thread: first {@code firstPause}, then twice as long each time, up to {@code maxPause}. Each check
     * and pause is recorded, so a replay runs no check again. A check whose attempts all fail fails the wait: give a
     * check of a service that may be down for a while its own retry policy with the form that takes
     * {@link StepOptions}.
     *
     * @throws IllegalArgumentException when a pause is not positive or {@code maxPause} is shorter than
     *                                  {@code firstPause}
     */
    default <T> T awaitCondition(String name, Duration firstPause, Duration maxPause, StepFunction<T> check) {
        return awaitCondition(name, firstPause, maxPause, StepOptions.defaults(), check);
    }

    /** As {@link #awaitCondition(String, Duration, Duration, StepFunction)}, each check run with {@code options}. */
    <T> T awaitCondition(
            String name, Duration firstPause, Duration maxPause, StepOptions options, StepFunction<T> check);

    // ---------------------------------------------------------------- async forms, races and scopes

    /**
     * Starts a step and returns at once; the step runs beside the code that started it, with the workflow's retry
     * policy. Its id and recorded outcome are those of {@link #step(String, StepFunction)}.
     */
    <T> DurableFuture<T> stepAsync(String name, StepFunction<T> fn);

    /** {@link #stepAsync(String, StepFunction)} with the given options. */
    <T> DurableFuture<T> stepAsync(String name, StepOptions options, StepFunction<T> fn);

    /** A durable timer that ends {@code duration} from now; for a {@linkplain #race race} against other waits. */
    DurableFuture<Void> timer(String name, Duration duration);

    /** A wait for the signal {@code name}, with no time limit of its own (race it against a {@link #timer}). */
    <T> DurableFuture<T> signalAsync(String name, Class<T> type);

    /** Starts a child run as {@link #child(String, Workflow, Object, ChildOptions)} does and returns at once. */
    <I, O> DurableFuture<O> childAsync(String name, Workflow<I, O> workflow, I input, ChildOptions options);

    /** {@link #childAsync(String, Workflow, Object, ChildOptions)} with the default options. */
    <I, O> DurableFuture<O> childAsync(String name, Workflow<I, O> workflow, I input);

    /**
     * Runs {@code fn} beside the code that calls this, in a scope of its own: its primitives' ids begin with this
     * scope's ({@code name/...}), and canceling it (it lost a race) cancels them, interrupting a step it runs.
     */
    <T> DurableFuture<T> async(String name, AsyncFunction<T> fn);

    /**
     * Waits for the first of {@code contenders} to end (with a value or a failure) and returns it; the others are
     * canceled: a timer no longer fires, a signal wait takes no signal, a step is interrupted, a child is asked to
     * cancel when its parent-close policy says so, an async scope's code is told at its next primitive. The winner is
     * recorded, so a replay returns the same one whatever order the outcomes come in then.
     *
     * @return the future that won, to compare with the contenders and read with {@link DurableFuture#get()}
     * @throws IllegalArgumentException when there is no contender, one is given twice, or one is not of this run
     * @throws CanceledException        when every contender was canceled before one ended
     */
    DurableFuture<?> race(String name, List<? extends DurableFuture<?>> contenders);

    /** {@link #race(String, List)} of the given futures. */
    default DurableFuture<?> race(String name, DurableFuture<?>... contenders) {
        // not List.of, which throws a bare NullPointerException for a null contender: the race names it
        return race(name, java.util.Arrays.asList(java.util.Objects.requireNonNull(contenders, "contenders")));
    }

    /**
     * Waits until every one of {@code futures} has ended; then throws the first failure among them, in their order,
     * as its {@code get} would. An empty list returns at once.
     *
     * @throws IllegalArgumentException when a future is not of this run, or is given twice
     */
    void allOf(List<? extends DurableFuture<?>> futures);

    /**
     * Runs {@code fn} now, in a scope that the run's cancellation does not reach: the place for cleanup after a
     * cancel. Its steps still run (with their retries) and are recorded, its timers still fire. Its primitives' ids
     * begin with this scope's ({@code name/...}).
     *
     * <pre>{@code
     * try {
     *     ctx.step("work", ...);
     * } catch (CanceledException e) {
     *     ctx.detached("release", c -> c.step("release", () -> stock.release(order)));
     *     throw e;
     * }
     * }</pre>
     */
    <T> T detached(String name, AsyncFunction<T> fn);

    /**
     * Ends this run and starts its successor, a new run of the same workflow with {@code input}, in one write: there is
     * no moment with neither, a replay never starts a second, and the signals this run had not taken go to the
     * successor. The successor's id is this chain's first id followed by {@code ~2}, {@code ~3}, …; its log begins
     * anew, so a workflow that loops for years keeps a short log. Signals and result waits addressed to a run that
     * continued follow it to its successor. Never returns: call it as {@code return ctx.continueAsNew(next);}. It
     * unwinds the code by throwing an {@link Error} of Worldflow's own; code that catches it ({@code catch
     * (Throwable t)}) does not undo it: however the code then ends, the run continues as new with this input.
     *
     * @throws IllegalArgumentException when {@code input} is not of the workflow's input type
     * @throws IllegalStateException    when called from a branch or a scope rather than the workflow's own code
     */
    <T> T continueAsNew(Object input);

    /** The current time, recorded: replay sees the same instant. */
    Instant now();

    /** A random generator whose seed is recorded: replay sees the same numbers. */
    Random random();

    /** A random UUID, recorded. */
    UUID uuid();

    /** Runs {@code fn} once and records its result, without retries; for small non-deterministic reads. */
    <T> T sideEffect(String name, StepFunction<T> fn);

    /**
     * Patching: returns the version recorded for {@code changeId} when this run already passed this
     * point, {@code minSupported} when its history predates the change, else {@code maxSupported}.
     */
    int version(String changeId, int minSupported, int maxSupported);

    /** Whether the code is currently replaying recorded history (for example, to keep logs quiet). */
    boolean isReplaying();

    /**
     * The run's search attributes now: those it started with and the changes its code has made so far (on a replay,
     * those made up to this point).
     */
    SearchAttributes searchAttributes();

    /**
     * Sets search attributes of this run, keeping the others, so that runs can be found by them
     * ({@link RunQuery#withAttribute}); recorded in the log, and indexed by the world as the change is written. A
     * successor ({@link #continueAsNew}) starts with the attributes its predecessor had.
     *
     * @throws IllegalArgumentException when an attribute already has a value of another type, or the run would carry
     *                                  more than {@link SearchAttributes#MAX_ATTRIBUTES}; nothing is changed
     */
    void upsertSearchAttributes(SearchAttributes attributes);

    /** Removes the search attributes named {@code names} from this run (recorded as {@link #upsertSearchAttributes}). */
    void removeSearchAttributes(String... names);
}
