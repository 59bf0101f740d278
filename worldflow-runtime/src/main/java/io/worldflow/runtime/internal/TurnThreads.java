package io.worldflow.runtime.internal;

import io.worldflow.RunStatus;
import io.worldflow.internal.CurrentContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The threads of one turn of a run and what they wait for: how many run, which wait and on what, and the turn's phase,
 * all under one lock. When the last running thread blocks on something durable (a timer, a signal, a child's end) the
 * turn suspends: its run's next wake-up is committed and its threads unwind, unless what they wait for is near enough
 * to wait for in memory. The turn is over, and {@link #done} completes, when the last thread has left.
 */
final class TurnThreads {

    private static final Logger log = LoggerFactory.getLogger(TurnThreads.class);

    private enum Phase {
        ACTIVE,
        SUSPENDED,
        ABORTED,
        ENDED
    }

    private final RunExecution exec;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int running;
    private int alive;
    /** Whether the run has lent its slot to its children ({@link WorkerLoop#lend}). */
    private boolean lending;

    private long pokes;
    private final List<BlockedThread> waits = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile Phase phase = Phase.ACTIVE;
    private RunExecution.Outcome outcome;
    private final CompletableFuture<RunExecution.Outcome> done = new CompletableFuture<>();
    /** Threads looking for a signal: a push notice pokes the turn only when there are some. */
    private final AtomicInteger signalWaits = new AtomicInteger();
    /** The run's deadline has passed: every wait ends, so that the code meets it at its next primitive. */
    private volatile boolean deadlinePassed;
    /**
     * The pokes this turn asked the scheduler for (a timer's end, a deadline), canceled when the turn ends: a run
     * that suspends for a long sleep leaves nothing of itself in this process. Guarded by itself.
     */
    private final List<ClockScheduler.Scheduled> wakeUps = new ArrayList<>();

    TurnThreads(RunExecution exec) {
        this.exec = exec;
        done.whenComplete((o, e) -> cancelWakeUps());
    }

    CompletableFuture<RunExecution.Outcome> done() {
        return done;
    }

    /** Whether the turn still runs: not suspended, ended or abandoned (its threads may be unwinding otherwise). */
    boolean active() {
        return phase == Phase.ACTIVE;
    }

    boolean aborted() {
        return phase == Phase.ABORTED;
    }

    /** Whether the turn has ended normally (suspended or finished) and its threads are only unwinding. */
    boolean endedCleanly() {
        lock.lock();
        try {
            return (phase == Phase.SUSPENDED || phase == Phase.ENDED) && outcome != RunExecution.Outcome.ABORTED;
        } finally {
            lock.unlock();
        }
    }

    /** Throws when the turn has ended (suspended or aborted): no primitive may run any more. */
    void checkActive() {
        Phase p = phase;
        if (p != Phase.ACTIVE) {
            throw new ExecutionStop(
                    p == Phase.SUSPENDED ? ExecutionStop.Reason.SUSPENDED : ExecutionStop.Reason.ABORTED);
        }
    }

    /** Runs {@code body} on a new virtual thread of the turn, unless the turn no longer runs. */
    void spawn(String name, Runnable body) {
        lock.lock();
        try {
            if (phase != Phase.ACTIVE) {
                return;
            }
            running++;
            alive++;
            Thread t = Thread.ofVirtual().name("wf-" + exec.runId + "-" + name).unstarted(exec.telemetry.current(() -> {
                MDC.put("runId", exec.runId);
                MDC.put("workflow", exec.workflow.name());
                try {
                    body.run();
                } catch (ExecutionStop ignored) {
                    // the turn ended early; nothing more to do on this thread
                } catch (Throwable unexpected) {
                    log.error("run {}: unexpected error on thread {}", exec.runId, name, unexpected);
                    abort("unexpected error: " + unexpected);
                } finally {
                    CurrentContext.swap(null);
                    MDC.clear();
                    exited();
                }
            }));
            threads.add(t);
            t.start();
        } finally {
            lock.unlock();
        }
    }

    private void exited() {
        RunExecution.Outcome ended = null;
        lock.lock();
        try {
            running--;
            alive--;
            threads.remove(Thread.currentThread());
            if (alive == 0) {
                if (outcome == null) {
                    outcome = phase == Phase.SUSPENDED ? RunExecution.Outcome.SUSPENDED : RunExecution.Outcome.ABORTED;
                }
                ended = outcome;
            } else if (phase == Phase.ACTIVE && allBlocked()) {
                // children written meanwhile, with the lock let go: whether every thread still waits is looked at again
                boolean wrote = createStartedChildren();
                if (!wrote || (phase == Phase.ACTIVE && allBlocked())) {
                    suspendIfIdle();
                }
            }
            // no wake-up: what a waiter waits for (a poke, its time, an in-memory condition) is not changed
            // by a thread's exit, and the one check that is, whether every thread now waits, was just made
        } finally {
            lock.unlock();
        }
        if (ended != null) {
            // outside the lock: the worker's callback takes the run's slot, whose holder may be waiting for
            // this lock (a turn leased again while this one unwinds)
            done.complete(ended);
        }
    }

    /** Stops the turn without writing anything more (lease lost, fenced off, shutdown). */
    void abort(String why) {
        lock.lock();
        try {
            if (phase == Phase.ACTIVE) {
                log.debug("run {}: turn aborted: {}", exec.runId, why);
                phase = Phase.ABORTED;
                outcome = RunExecution.Outcome.ABORTED;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Interrupts threads still running user code (last resort at shutdown). */
    void interrupt() {
        lock.lock();
        try {
            threads.forEach(Thread::interrupt);
        } finally {
            lock.unlock();
        }
    }

    /** Only the main thread ends a run, once, and only while the turn is active. */
    boolean claimEnd() {
        lock.lock();
        try {
            if (phase != Phase.ACTIVE) {
                return false;
            }
            phase = Phase.ENDED;
            // what the code started and did not wait for is dropped: its waits unwind, its steps are interrupted
            changed.signalAll();
            exec.steps.interruptAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    void setOutcome(RunExecution.Outcome o) {
        lock.lock();
        try {
            outcome = o;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes waiting threads to re-check their condition (a signal may have arrived, time may have passed). */
    void poke() {
        lock.lock();
        try {
            pokes++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    long pokeCount() {
        lock.lock();
        try {
            return pokes;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a thread looks for a signal (from reading the poke count it waits on until it has its signal): a poke
     * then reaches it even between its look and its wait. Lock-free, so push callbacks can ask it from any thread.
     */
    boolean hasSignalWaiters() {
        return signalWaits.get() > 0;
    }

    /** Runs a wait for a signal ({@code look}), counted as a thread looking for one while it runs. */
    <T> T lookingForSignal(Supplier<T> look) {
        signalWaits.incrementAndGet();
        try {
            return look.get();
        } finally {
            signalWaits.decrementAndGet();
        }
    }

    /** The run's deadline has passed: every wait ends now. */
    void deadlineReached() {
        deadlinePassed = true;
        poke();
    }

    boolean deadlinePassed() {
        return deadlinePassed;
    }

    /**
     * Blocks until poked after {@code generation}, or until {@code wakeAt}: the caller re-checks its
     * condition afterwards. The wait is capped at the run's deadline. May end the turn (suspension).
     */
    void awaitDurable(long generation, Instant wakeAt, boolean signal, CancelScope scope) {
        Instant deadline = exec.info.deadline();
        Instant until = wakeAt;
        if (deadline != null && (until == null || deadline.isBefore(until))) {
            until = deadline;
        }
        if (until != null) {
            pokeAt(until);
        }
        block(new BlockedThread(until, signal, generation, null, false, scope));
    }

    /** Blocks until poked after {@code generation}: a wait for a child's end, which its signal brings. */
    void awaitChild(long generation, CancelScope scope) {
        Instant deadline = exec.info.deadline();
        if (deadline != null) {
            pokeAt(deadline);
        }
        block(new BlockedThread(deadline, true, generation, null, true, scope));
    }

    /**
     * Blocks until {@code condition} holds or {@code scope} is canceled; the condition is read under the run's lock.
     */
    void awaitInMemory(CancelScope scope, BooleanSupplier condition) {
        block(new BlockedThread(null, false, 0, condition, false, scope));
    }

    /**
     * Runs {@code change} under the run's lock; when it returns true (an in-memory condition may now hold),
     * wakes the waiting threads to re-check theirs.
     */
    void update(BooleanSupplier change) {
        lock.lock();
        try {
            if (change.getAsBoolean()) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void pokeAt(Instant at) {
        ClockScheduler.Scheduled wakeUp = exec.engine.scheduler.schedule(at, this::poke);
        synchronized (wakeUps) {
            wakeUps.removeIf(ClockScheduler.Scheduled::isDone);
            wakeUps.add(wakeUp);
            if (done.isDone()) {
                // the turn ended while this was scheduled, after its wake-ups were canceled
                cancelWakeUps();
            }
        }
    }

    private void cancelWakeUps() {
        synchronized (wakeUps) {
            wakeUps.forEach(ClockScheduler.Scheduled::cancel);
            wakeUps.clear();
        }
    }

    private void block(BlockedThread w) {
        lock.lock();
        try {
            running--;
            waits.add(w);
            try {
                while (true) {
                    checkActive();
                    if (w.ready(pokes, exec.engine.clock.instant()) || deadlinePassed) {
                        return;
                    }
                    if (allBlocked()) {
                        if (createStartedChildren()) {
                            continue;
                        }
                        suspendIfIdle();
                        checkActive();
                    }
                    changed.awaitUninterruptibly();
                }
            } finally {
                waits.remove(w);
                running++;
                if (lending) {
                    lending = false;
                    exec.engine.worker.reclaim();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean allBlocked() {
        if (running > 0 || waits.isEmpty()) {
            return false;
        }
        Instant now = exec.engine.clock.instant();
        for (BlockedThread w : waits) {
            if (w.ready(pokes, now)) {
                return false;
            }
        }
        return !deadlinePassed;
    }

    /**
     * Called with the lock held when every thread waits: creates the children this turn started and has not yet
     * written, by an append made with the lock let go, as a turn that stays in memory for its children would otherwise
     * wait for children that do not exist. Branches that start children side by side have them created together.
     *
     * @return whether it wrote (the lock was let go meanwhile: the waits must be looked at again)
     */
    private boolean createStartedChildren() {
        if (exec.engine.replay != null || !exec.runLog.startsPending()) {
            return false;
        }
        lock.unlock();
        try {
            exec.flush();
        } catch (ExecutionStop stop) {
            // the turn is aborted: its threads see that and unwind
        } finally {
            lock.lock();
        }
        return true;
    }

    /** Called with the lock held when every thread waits. Ends the turn unless the next wake-up is very near. */
    private void suspendIfIdle() {
        Instant wake = null;
        boolean signal = false;
        for (BlockedThread w : waits) {
            signal |= w.signal();
            if (w.wakeAt() != null && (wake == null || w.wakeAt().isBefore(wake))) {
                wake = w.wakeAt();
            }
        }
        Engine engine = exec.engine;
        Instant now = engine.clock.instant();
        if (wake != null && Duration.between(now, wake).compareTo(engine.stickyWait) <= 0) {
            return; // stay in memory: a poke is scheduled at the wake-up
        }
        long childNanos = exec.children.busyNanos(engine.stickyWait);
        if (childNanos > 0 && waits.stream().anyMatch(BlockedThread::child)) {
            // stay in memory while children are busy, lending them this run's slot; look again once the while has
            // passed
            CompletableFuture.delayedExecutor(childNanos, TimeUnit.NANOSECONDS).execute(this::poke);
            if (!lending && engine.worker != null) {
                lending = true;
                engine.worker.lend();
            }
            return;
        }
        phase = Phase.SUSPENDED;
        outcome = RunExecution.Outcome.SUSPENDED;
        RunStatus status = signal ? RunStatus.WAITING : RunStatus.SLEEPING;
        try {
            exec.endTurn(status, wake);
        } catch (ExecutionStop stop) {
            outcome = RunExecution.Outcome.ABORTED;
        } catch (RuntimeException e) {
            log.warn(
                    "run {}: could not record its suspension ({}); its lease will expire and it will resume",
                    exec.runId,
                    e.toString());
            outcome = RunExecution.Outcome.ABORTED;
        }
        changed.signalAll();
    }
}
