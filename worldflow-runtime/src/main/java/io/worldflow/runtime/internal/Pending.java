package io.worldflow.runtime.internal;

import io.worldflow.CanceledException;
import io.worldflow.DurableFuture;
import io.worldflow.WorldflowException;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.internal.CurrentContext;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link DurableFuture} of one primitive started with an async form, or of an async block. Its outcome comes
 * from the history when the history holds it, else from the thread that runs the primitive; its state is read and
 * changed under the run's lock, so that a race sees every contender's state at one moment.
 */
final class Pending<T> implements DurableFuture<T> {

    /** Live outcomes in the order they came, across the process: only their order matters. */
    private static final AtomicLong ARRIVALS = new AtomicLong();

    private final RunExecution exec;
    private final String id;
    /** The scope the primitive's code runs in: canceling this future cancels it. */
    final CancelScope scope;
    /** What else a cancel does (a child asked to cancel); null for nothing. */
    private Runnable onCancel;

    private boolean done;
    private boolean canceled;
    private T value;
    private Throwable error;
    /**
     * Which outcome came first, for a race: an outcome the history holds comes before every live one, and among
     * those the earlier in the log first; live ones in the order they came.
     */
    private long rank;
    /** The last outcome the primitive's code may have acted on, which the code that reads this one sees too. */
    private long seen = -1;

    Pending(RunExecution exec, String id, CancelScope scope) {
        this.exec = exec;
        this.id = id;
        this.scope = scope;
    }

    /** A future whose outcome the history holds: {@code outcome} (what the synchronous form returns or throws). */
    static <T> Pending<T> replayed(RunExecution exec, String id, long seq, java.util.function.Supplier<T> outcome) {
        Pending<T> p = new Pending<>(exec, id, CancelScope.detached(id));
        try {
            p.value = outcome.get();
        } catch (RuntimeException e) {
            p.error = e;
        }
        p.done = true;
        p.rank = seq;
        return p;
    }

    /** A future the history shows canceled. */
    static <T> Pending<T> canceledBefore(RunExecution exec, String id) {
        Pending<T> p = new Pending<>(exec, id, CancelScope.detached(id));
        p.canceled = true;
        return p;
    }

    @Override
    public String id() {
        return id;
    }

    RunExecution exec() {
        return exec;
    }

    void onCancel(Runnable action) {
        this.onCancel = action;
    }

    /** Called under the run's lock. */
    boolean settled() {
        return done || canceled;
    }

    /** Called under the run's lock: the rank of a done future, or {@code Long.MAX_VALUE} for one not done. */
    long rank() {
        return done && !canceled ? rank : Long.MAX_VALUE;
    }

    void complete(T v, long seenSeq) {
        settle(v, null, seenSeq);
    }

    void fail(Throwable e, long seenSeq) {
        settle(null, e, seenSeq);
    }

    private void settle(T v, Throwable e, long seenSeq) {
        exec.threads.update(() -> {
            if (canceled) {
                return false; // it lost a race meanwhile: what it brings is not its outcome
            }
            value = v;
            error = e;
            seen = seenSeq;
            rank = (1L << 62) + ARRIVALS.incrementAndGet();
            done = true;
            return true;
        });
    }

    /**
     * Cancels the primitive unless it has ended: records that, with {@code by} (the code that decided it), cancels
     * its scope (waking its waits, interrupting its step) and does what else a cancel of it does.
     *
     * @return whether it was canceled now
     */
    boolean cancel(RunContext by, String reason) {
        boolean[] now = {false};
        exec.threads.update(() -> {
            if (done || canceled) {
                return false;
            }
            canceled = true;
            now[0] = true;
            return true;
        });
        if (!now[0]) {
            return false;
        }
        scope.cancel(reason);
        by.record(seq -> new PrimitiveCanceled(exec.runId, seq, exec.now(), id, reason));
        if (onCancel != null) {
            onCancel.run();
        }
        exec.canceled();
        return true;
    }

    @Override
    public T get() {
        if (!(CurrentContext.get() instanceof RunContext caller) || caller.exec != exec) {
            throw new IllegalStateException("future '" + id + "' of run '" + exec.runId
                    + "' can be waited for only by the workflow code of that run");
        }
        exec.threads.awaitInMemory(caller.cancel, this::settled);
        exec.threads.checkActive();
        if (scope.isCanceled()) {
            // the cancellation that ended the wait reaches this future too, which settles as it does: with the outcome
            // its code replays from the history, or with its own cancellation. The caller sees that, the same on every
            // replay, not whichever of the two threads got there first.
            exec.threads.awaitInMemory(CancelScope.NONE, this::settled);
            exec.threads.checkActive();
        }
        boolean[] state = new boolean[2];
        exec.threads.update(() -> {
            state[0] = done;
            state[1] = canceled;
            return false;
        });
        if (state[1]) {
            throw new CanceledException(id, "'" + id + "' of run '" + exec.runId + "' was canceled");
        }
        if (!state[0]) {
            throw caller.cancel.exception(exec.runId); // the waiting code's own scope was canceled
        }
        caller.sawAlso(seen);
        if (error instanceof RuntimeException r) {
            throw r;
        }
        if (error instanceof Error err) {
            throw err;
        }
        if (error != null) {
            throw new WorldflowException("'" + id + "' of run '" + exec.runId + "' failed: " + error, error);
        }
        return value;
    }
}
