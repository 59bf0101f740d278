package io.worldflow.runtime.internal;

import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * A thread of a run blocked until something durable happens (or, for in-memory waits, until a condition holds).
 *
 * @param wakeAt     when it wakes by itself, or null
 * @param signal     whether it waits for a signal (the run then waits rather than sleeps when it suspends)
 * @param generation the poke count it saw before it looked for what it waits for: a poke since wakes it
 * @param condition  the in-memory condition it waits for, read under the run's lock, or null
 * @param child      whether it waits for a child run's end
 * @param scope      the scope of the waiting code: its cancellation ends the wait
 */
record BlockedThread(
        Instant wakeAt, boolean signal, long generation, BooleanSupplier condition, boolean child, CancelScope scope) {

    boolean ready(long pokes, Instant now) {
        if (scope.isCanceled()) {
            return true;
        }
        if (condition != null) {
            return condition.getAsBoolean();
        }
        return pokes != generation || (wakeAt != null && !now.isBefore(wakeAt));
    }
}
