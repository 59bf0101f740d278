package io.worldflow.runtime.internal;

import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.RaceStarted;
import io.worldflow.event.ScopeStarted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.OutgoingCancel;
import io.worldflow.spi.OutgoingSignal;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.TurnEnd;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * The tail of one run's log during a turn: events recorded but not yet durable, the signals they
 * consume, and the next sequence number. Appends leave in order through the group committer, so a
 * run's threads may pipeline them.
 */
final class RunLog {

    private final Engine engine;
    private final String runId;
    private final ReentrantLock lock = new ReentrantLock();
    private long nextSeq;
    private List<Event> pending = new ArrayList<>();
    private List<Long> consumed = new ArrayList<>();
    private final Set<Long> claimedSignals = new HashSet<>();
    /**
     * The run's pending signals as last read (or being read), and the poke generation they were read in: the threads
     * that look for a signal in one generation share one read, those that come while it is under way wait for it (a
     * parent waiting for a hundred children reads its signals once per wake-up, not a hundred times); a poke, which
     * anything that may bring a signal causes, makes the next look read again.
     */
    private CompletableFuture<List<PendingSignal>> pendingRead;

    private long pendingGeneration = -1;
    private volatile RunStatus projected;
    /** Whether the world still marks the run held: its code matched the history this time, so the turn's end clears that. */
    private boolean held;
    /** The run the next append starts and hands the pending signals to, or null. */
    private NewRun successor;
    /** What the next append does to other runs, in its own transaction: runs it starts, signals, cancels. */
    private List<NewRun> starts = new ArrayList<>();

    private List<OutgoingSignal> outgoing = new ArrayList<>();
    private List<OutgoingCancel> cancels = new ArrayList<>();
    /** The last append sent (null before the first): it holds every event before the buffered ones. */
    private CompletableFuture<AppendResult> lastAppend;

    RunLog(Engine engine, String runId, long nextSeq, RunStatus projected, boolean held) {
        this.engine = engine;
        this.runId = runId;
        this.nextSeq = nextSeq;
        this.projected = projected;
        this.held = held;
    }

    /**
     * Buffers an event with the next sequence number; it becomes durable with the next append.
     *
     * @return the event's seq when it is an outcome the recording code may act on ({@link #isOutcome}), else -1
     */
    long record(LongFunction<Event> make) {
        lock.lock();
        try {
            Event e = make.apply(nextSeq++);
            pending.add(e);
            return isOutcome(e) ? e.seq() : -1;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The append that makes every event up to {@code seq} durable: the last one sent when it holds that
     * event (in flight or done; appends of a run complete in order), else a new one of everything buffered.
     */
    CompletableFuture<AppendResult> through(long seq, RunStatus status) {
        lock.lock();
        try {
            if (seq < nextSeq - pending.size()) {
                return lastAppend;
            }
            return submit(status, null);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether code may act on the event differently had it been otherwise. A step being scheduled or started
     * is not, nor a fan-out starting or joining (its branches' outcomes are theirs), nor a plain timer having
     * fired: lost in a crash, it fires again on replay and the code after it does the same (a signal's
     * timeout, which decides between two paths, is a {@code SignalTimedOut}, an outcome).
     */
    private static boolean isOutcome(Event e) {
        return !(e instanceof StepScheduled
                || e instanceof StepStarted
                || e instanceof TimerFired
                || e instanceof ParallelStarted
                || e instanceof ParallelCompleted
                || e instanceof ScopeStarted
                || e instanceof RaceStarted
                || e instanceof PrimitiveCanceled);
    }

    /** The oldest pending signal of that name not yet taken by another wait of this turn, claimed. */
    Optional<PendingSignal> claimSignal(String name, long generation) {
        List<PendingSignal> all = pendingSignals(generation);
        lock.lock();
        try {
            for (PendingSignal s : all) {
                if (s.name().equals(name) && claimedSignals.add(s.id())) {
                    consumed.add(s.id());
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** The run's pending signals, read once for the poke generation {@code generation} (see {@link #pendingRead}). */
    private List<PendingSignal> pendingSignals(long generation) {
        CompletableFuture<List<PendingSignal>> read;
        boolean reader = false;
        lock.lock();
        try {
            if (pendingGeneration == generation && pendingRead != null) {
                read = pendingRead;
            } else {
                read = new CompletableFuture<>();
                reader = true;
                if (generation > pendingGeneration) {
                    pendingRead = read;
                    pendingGeneration = generation;
                }
            }
        } finally {
            lock.unlock();
        }
        if (reader) {
            try {
                // a replay sees no signal the history does not hold: one waited for there is where it catches up
                read.complete(
                        engine.replay != null
                                ? List.of()
                                : engine.world.signals().pending(runId));
            } catch (RuntimeException e) {
                read.completeExceptionally(e);
                lock.lock();
                try {
                    if (pendingRead == read) {
                        pendingRead = null; // the next look reads again
                    }
                } finally {
                    lock.unlock();
                }
                throw e;
            }
        }
        try {
            return read.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** The run that the next append starts, handing this run's pending signals to it (continue-as-new). */
    void handOver(NewRun next) {
        lock.lock();
        try {
            successor = next;
        } finally {
            lock.unlock();
        }
    }

    /** A run the next append creates, in its transaction (a child: it exists exactly when its start is recorded). */
    void start(NewRun run) {
        lock.lock();
        try {
            starts.add(run);
        } finally {
            lock.unlock();
        }
    }

    /** Whether the next append creates runs: children started that do not exist until it is made. */
    boolean startsPending() {
        lock.lock();
        try {
            return !starts.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** A signal to another run that the next append stores, in its transaction. */
    void send(OutgoingSignal signal) {
        lock.lock();
        try {
            outgoing.add(signal);
        } finally {
            lock.unlock();
        }
    }

    /** Another run whose cancellation the next append requests, in its transaction. */
    void cancel(OutgoingCancel cancel) {
        lock.lock();
        try {
            cancels.add(cancel);
        } finally {
            lock.unlock();
        }
    }

    /** Gives back a claimed signal: it is not consumed, and another wait of this turn may take it. */
    void unclaimSignal(PendingSignal signal) {
        lock.lock();
        try {
            claimedSignals.remove(signal.id());
            consumed.remove(Long.valueOf(signal.id()));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends what is buffered as one append with the run's new status (and, with {@code end}, the end of
     * the turn). When there is nothing to write the turn's end goes straight to the task queue and the
     * result is null. A run that was held ends its turn with an append even so: any append clears the hold.
     */
    CompletableFuture<AppendResult> submit(RunStatus status, TurnEnd end) {
        lock.lock();
        try {
            boolean effects = successor != null || !starts.isEmpty() || !outgoing.isEmpty() || !cancels.isEmpty();
            if (pending.isEmpty()
                    && consumed.isEmpty()
                    && !effects
                    && (end == null || (status == projected && !held))) {
                if (end != null) {
                    engine.world.taskQueue().complete(end.lease(), end.wakeAt());
                }
                return null;
            }
            Append append;
            if (effects) {
                if (successor != null) {
                    starts.add(successor);
                }
                append = new Append(
                        runId,
                        nextSeq - pending.size(),
                        pending,
                        status,
                        consumed,
                        end,
                        starts,
                        outgoing,
                        cancels,
                        successor == null ? null : successor.runId());
                starts = new ArrayList<>();
                outgoing = new ArrayList<>();
                cancels = new ArrayList<>();
                successor = null;
            } else {
                append = new Append(runId, nextSeq - pending.size(), pending, status, consumed, end);
            }
            pending = new ArrayList<>();
            consumed = new ArrayList<>();
            held = false;
            lastAppend = engine.committer.submit(append).thenApply(result -> {
                if (result.appended()) {
                    projected = status;
                }
                return result;
            });
            return lastAppend;
        } finally {
            lock.unlock();
        }
    }
}
