package io.worldflow.runtime.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The threads running a step's code in one turn of a run, each with the cancel scope of the code that runs the step:
 * a cancel of that scope interrupts the thread, and the step's code sees the interrupt.
 */
final class StepThreads {

    private final Map<Thread, CancelScope> running = new ConcurrentHashMap<>();

    /** The current thread runs a step's code for code in {@code scope}, until {@link #leave}. */
    void enter(CancelScope scope) {
        running.put(Thread.currentThread(), scope);
        if (scope.isCanceled()) {
            Thread.currentThread().interrupt();
        }
    }

    /** The step's code has returned: an interrupt meant for it must not reach the workflow code after it. */
    void leave() {
        running.remove(Thread.currentThread());
        Thread.interrupted();
    }

    /** Interrupts the threads whose code's scope is canceled now. */
    void interruptCanceled() {
        running.forEach((thread, scope) -> {
            if (scope.isCanceled()) {
                thread.interrupt();
            }
        });
    }

    /** Interrupts them all: the run has ended, and what it started and did not wait for is dropped. */
    void interruptAll() {
        running.keySet().forEach(Thread::interrupt);
    }
}
