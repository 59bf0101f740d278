package io.worldflow;

/**
 * The outcome of a primitive started with an async form ({@link WorkflowContext#stepAsync}, {@link
 * WorkflowContext#timer}, {@link WorkflowContext#signalAsync}, {@link WorkflowContext#childAsync}, {@link
 * WorkflowContext#async}), which runs while the code that started it goes on. Its outcome is recorded like the
 * primitive's own, so a replay sees the same one; waiting for it holds no thread once every thread of the run waits.
 *
 * @param <T> the type of its value
 */
public interface DurableFuture<T> {

    /** The primitive's id (a path of names and counters), as it appears in the run's log. */
    String id();

    /**
     * Waits for the outcome and returns its value.
     *
     * @throws CanceledException when the primitive was canceled (it lost a race, or its scope was canceled)
     * @throws RuntimeException  the primitive's own failure, as its synchronous form would throw it
     */
    T get();
}
