package io.worldflow.runtime.internal;

import io.worldflow.DeadlineExceededException;
import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.PayloadKeyException;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SerializationException;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.event.PrimitiveEvent;
import io.worldflow.internal.CurrentContext;
import io.worldflow.runtime.internal.telemetry.TurnTelemetry;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SearchValues;
import io.worldflow.spi.TurnEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * One turn of one run in this worker: the workflow code runs on virtual threads (the main one and one
 * per fan-out branch) against the run's history. Known outcomes come from the history; new ones are
 * executed, buffered as events and appended through the group committer. The run stays in memory
 * between steps (no replay per step). When every thread waits on something durable (a timer, a
 * signal, a retry's backoff) the turn ends: pending events and the next wake-up are committed in one
 * append, the threads unwind, and no thread is held until the next turn.
 */
final class RunExecution {

    private static final Logger log = LoggerFactory.getLogger(RunExecution.class);

    /** How the turn ended. */
    enum Outcome {
        FINISHED,
        SUSPENDED,
        HELD,
        ABORTED
    }

    private enum Phase {
        ACTIVE,
        SUSPENDED,
        ABORTED,
        ENDED
    }

    final Engine engine;
    final String runId;
    final Workflow<Object, Object> workflow;
    final RunInfo info;
    final History history;
    final RunSearch search;
    /** The version of each change decided in this turn and not recorded (a history from before it): the oldest. */
    final Map<String, Integer> versions = new ConcurrentHashMap<>();

    private volatile Lease lease;
    /** When, in real time, the lease was last granted or extended. */
    private volatile long leaseRenewedNanos = System.nanoTime();

    /** The tail of the run's log during this turn: what is recorded, and what the next append does to other runs. */
    final RunLog runLog;
    /** The child runs this run has started and not heard the end of, for its own end. */
    final ChildRuns children;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int running;
    /** Whether this run has lent its slot to its children ({@link WorkerLoop#lend}); guarded by {@link #lock}. */
    private boolean lending;

    private int alive;
    private final AtomicInteger signalWaits = new AtomicInteger();
    private long pokes;
    private final List<BlockedThread> waits = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private Phase phase = Phase.ACTIVE;
    private Outcome outcome;
    private final CompletableFuture<Outcome> done = new CompletableFuture<>();
    /**
     * The pokes this turn asked the scheduler for (a timer's end, a deadline), canceled when the turn ends: a run
     * that suspends for a long sleep leaves nothing of itself in this process. Guarded by itself.
     */
    private final List<ClockScheduler.Scheduled> wakeUps = new ArrayList<>();
    /** The scope of the workflow code, which the run's cancellation cancels. */
    final CancelScope rootScope = CancelScope.root(this);
    /** Threads running a step's code: a cancel of the code that runs it interrupts them. */
    final StepThreads steps = new StepThreads();

    private volatile boolean cancelRequested;
    private volatile boolean canceling;
    private volatile boolean deadlinePassed;
    private volatile NonDeterministicWorkflowException nondeterminism;
    /** What the code continued as new with, once it has; the first call decides. */
    private volatile ContinueAsNew continuing;
    /** What this turn reports of itself: its span, current on the code's threads, and its meters. */
    final TurnTelemetry telemetry;
    /** When this turn began, by the engine's clock. */
    private final Instant startedAt;

    RunExecution(Engine engine, Lease lease, RunInfo info, Workflow<Object, Object> workflow, History history) {
        this.engine = engine;
        this.lease = lease;
        this.runId = info.runId();
        this.info = info;
        this.workflow = workflow;
        this.history = history;
        this.search = new RunSearch(SearchValues.apply(
                SearchAttributes.empty(),
                history.started().searchAttributes() == null
                        ? List.of()
                        : history.started().searchAttributes()));
        this.runLog = new RunLog(engine, runId, history.size(), info.status(), info.isHeld());
        this.children = new ChildRuns(history);
        this.cancelRequested = info.cancelRequested();
        // a cancel requested before this turn reaches its code where it waits, on every thread, as it replays
        this.canceling = cancelRequested;
        this.startedAt = engine.clock.instant();
        // a run's lag is its first turn's: when later turns were due is not kept (a timer's lateness is measured apart)
        this.telemetry = engine.telemetry.turn(
                runId, info.queue(), history.started(), history.size() == 1 ? info.availableAt() : null, startedAt);
        done.whenComplete((o, e) -> cancelWakeUps());
        if (telemetry.on()) {
            done.whenComplete(
                    (o, e) -> telemetry.ended(o == null ? "aborted" : o.name().toLowerCase(Locale.ROOT)));
        }
    }

    Lease lease() {
        return lease;
    }

    void leaseExtended(Lease extended) {
        this.lease = extended;
        this.leaseRenewedNanos = System.nanoTime();
    }

    /**
     * Whether less than {@code leaseFor} of real time has passed since the lease was last granted or extended: a lease
     * that lapsed all the same lapsed because the clock jumped (a test's manual clock), not because this turn is stuck.
     */
    boolean leaseHeldInRealTime(Duration leaseFor) {
        return System.nanoTime() - leaseRenewedNanos < leaseFor.toNanos();
    }

    CompletableFuture<Outcome> done() {
        return done;
    }

    /** Whether the turn still runs: not suspended, ended or abandoned (its threads may be unwinding otherwise). */
    boolean active() {
        lock.lock();
        try {
            return phase == Phase.ACTIVE;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the turn has ended normally (suspended or finished) and its threads are only unwinding. */
    boolean endedCleanly() {
        lock.lock();
        try {
            return (phase == Phase.SUSPENDED || phase == Phase.ENDED) && outcome != Outcome.ABORTED;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /** Starts the workflow code on its main virtual thread. */
    void start() {
        if (terminated()) {
            spawn("terminated", () -> new RunEnding(this).terminated());
            return;
        }
        RunContext root = new RunContext(this, "", -1, rootScope);
        spawn("main", () -> runMain(root));
    }

    /** Whether the run's termination was requested before this turn began: the turn ends it without its code. */
    boolean terminated() {
        return info.cancelRequest() != null && info.cancelRequest().terminate();
    }

    /**
     * The run's termination was requested while this turn runs: the turn stops without writing anything more (its
     * steps interrupted, their results dropped; its code's threads leave at their next primitive or wait), and its
     * lease goes back, so that the next turn ends the run without its code. The code's threads are not interrupted:
     * the last of them hands the lease back.
     */
    void terminateRequested() {
        abort("terminated");
        steps.interruptAll();
    }

    private void runMain(RunContext root) {
        Object output;
        try {
            root.enter();
            Object input;
            try {
                input = engine.codec.decode(
                        history.started().input(), workflow.inputType(), "input of run '" + runId + "'");
            } catch (SerializationException e) {
                throw new HeldException(
                        "the run's input can no longer be read as "
                                + workflow.inputType().getName() + ": " + e.getMessage(),
                        e);
            }
            output = workflow.execute(root, input);
        } catch (ExecutionStop stop) {
            return;
        } catch (ContinueAsNew next) {
            new RunEnding(this).continued(root, next.input);
            return;
        } catch (Throwable error) {
            ContinueAsNew next = continuing;
            if (next != null && !holds(error)) {
                new RunEnding(this).continued(root, next.input);
            } else {
                new RunEnding(this).failed(error);
            }
            return;
        }
        ContinueAsNew next = continuing;
        if (next != null) {
            // the code caught what continueAsNew threw (a catch of Throwable) and went on: the run still continues
            new RunEnding(this).continued(root, next.input);
        } else {
            new RunEnding(this).returned(root, output);
        }
    }

    /** Whether {@code error} holds the run rather than ends it: a history the code contradicts, an unreadable input. */
    private boolean holds(Throwable error) {
        return nondeterminism != null || error instanceof HeldException || error instanceof PayloadKeyException;
    }

    /**
     * Notes that the workflow's code continues as new with {@code next}: the run's end is decided then, even if the code
     * catches what {@code continueAsNew} throws to unwind it.
     */
    ContinueAsNew continueAsNew(ContinueAsNew next) {
        if (continuing == null) {
            continuing = next;
        }
        return continuing;
    }

    void spawn(String name, Runnable body) {
        lock.lock();
        try {
            if (phase != Phase.ACTIVE) {
                return;
            }
            running++;
            alive++;
            Thread t = Thread.ofVirtual().name("wf-" + runId + "-" + name).unstarted(telemetry.current(() -> {
                MDC.put("runId", runId);
                MDC.put("workflow", workflow.name());
                try {
                    body.run();
                } catch (ExecutionStop ignored) {
                    // the turn ended early; nothing more to do on this thread
                } catch (Throwable unexpected) {
                    log.error("run {}: unexpected error on thread {}", runId, name, unexpected);
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
        Outcome ended = null;
        lock.lock();
        try {
            running--;
            alive--;
            threads.remove(Thread.currentThread());
            if (alive == 0) {
                if (outcome == null) {
                    outcome = phase == Phase.SUSPENDED ? Outcome.SUSPENDED : Outcome.ABORTED;
                }
                ended = outcome;
            } else if (phase == Phase.ACTIVE && allBlocked()) {
                suspendIfIdle();
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
                log.debug("run {}: turn aborted: {}", runId, why);
                phase = Phase.ABORTED;
                outcome = Outcome.ABORTED;
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

    // ---------------------------------------------------------------- checks used by primitives

    /** Throws when the turn has ended (suspended or aborted): no primitive may run any more. */
    void checkActive() {
        Phase p = phase;
        if (p != Phase.ACTIVE) {
            throw new ExecutionStop(
                    p == Phase.SUSPENDED ? ExecutionStop.Reason.SUSPENDED : ExecutionStop.Reason.ABORTED);
        }
    }

    /**
     * Before a primitive of code in {@code scope} does something new: the run's cancellation and the deadline are
     * noticed here, and code of a canceled scope is told so.
     *
     * @param where the code about to do something new, or null for the run's end, which does nothing new
     */
    void beginLive(CancelScope scope, RunContext where) {
        checkActive();
        if (cancelRequested && !canceling) {
            canceling = true;
            poke();
            steps.interruptCanceled();
        }
        if (scope.isCanceled()) {
            throw scope.exception(runId);
        }
        Instant deadline = info.deadline();
        if (deadline != null && !engine.clock.instant().isBefore(deadline)) {
            deadlinePassed = true;
            poke();
            throw new DeadlineExceededException(runId, deadline);
        }
        // a replay stops after the checks: what a cancellation or the deadline makes the code do is in the history
        if (engine.replay != null && where != null) {
            throw engine.replay.live(this, "goes on with " + where.lastTaken());
        }
    }

    NonDeterministicWorkflowException nondeterministic(String message) {
        NonDeterministicWorkflowException e = new NonDeterministicWorkflowException(runId, message);
        if (nondeterminism == null) {
            nondeterminism = e;
        }
        return e;
    }

    /**
     * When the primitive {@code id} recorded its first {@code type} event: as the history holds it, or, recorded in
     * this turn, no earlier than the turn's start (what a span of its wait begins with).
     */
    Instant recordedAt(String id, Class<? extends PrimitiveEvent> type) {
        History.Recorded recorded = history.get(id);
        PrimitiveEvent event = recorded == null ? null : recorded.first(type);
        return event != null ? event.at() : startedAt;
    }

    Instant now() {
        return engine.clock.instant();
    }

    // ---------------------------------------------------------------- waiting

    long pokeCount() {
        lock.lock();
        try {
            return pokes;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Blocks until poked after {@code generation}, or until {@code wakeAt}: the caller re-checks its
     * condition afterwards. The wait is capped at the run's deadline. May end the turn (suspension).
     */
    void awaitDurable(long generation, Instant wakeAt, boolean signal, CancelScope scope) {
        Instant deadline = info.deadline();
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
        Instant deadline = info.deadline();
        if (deadline != null) {
            pokeAt(deadline);
        }
        block(new BlockedThread(deadline, true, generation, null, true, scope));
    }

    private void pokeAt(Instant at) {
        ClockScheduler.Scheduled wakeUp = engine.scheduler.schedule(at, this::poke);
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

    /**
     * Blocks until {@code condition} holds or {@code scope} is canceled; the condition is read under the run's lock.
     */
    void awaitInMemory(CancelScope scope, BooleanSupplier condition) {
        block(new BlockedThread(null, false, 0, condition, false, scope));
    }

    /** The run's cancellation was requested: noticed now, its waits woken and its running steps interrupted. */
    void cancelRequested() {
        cancelRequested = true;
        canceling = true;
        canceled();
    }

    /** Wakes the waits of a scope just canceled, and interrupts its steps. */
    void canceled() {
        poke();
        steps.interruptCanceled();
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

    private void block(BlockedThread w) {
        lock.lock();
        try {
            running--;
            waits.add(w);
            try {
                while (true) {
                    checkActive();
                    if (w.ready(pokes, engine.clock.instant()) || deadlinePassed) {
                        return;
                    }
                    if (allBlocked()) {
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
                    engine.worker.reclaim();
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
        Instant now = engine.clock.instant();
        for (BlockedThread w : waits) {
            if (w.ready(pokes, now)) {
                return false;
            }
        }
        return !deadlinePassed;
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
        Instant now = engine.clock.instant();
        if (wake != null && Duration.between(now, wake).compareTo(engine.stickyWait) <= 0) {
            return; // stay in memory: a poke is scheduled at the wake-up
        }
        long childNanos = children.busyNanos(engine.stickyWait);
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
        outcome = Outcome.SUSPENDED;
        RunStatus status = signal ? RunStatus.WAITING : RunStatus.SLEEPING;
        try {
            endTurn(status, wake);
        } catch (ExecutionStop stop) {
            outcome = Outcome.ABORTED;
        } catch (RuntimeException e) {
            log.warn(
                    "run {}: could not record its suspension ({}); its lease will expire and it will resume",
                    runId,
                    e.toString());
            outcome = Outcome.ABORTED;
        }
        changed.signalAll();
    }

    // ---------------------------------------------------------------- the log

    /** The oldest pending signal of that name not yet taken by another wait of this turn, claimed. */
    Optional<PendingSignal> claimSignal(String name, long generation) {
        return runLog.claimSignal(name, generation);
    }

    /**
     * Buffers an event; it becomes durable with the next flush.
     *
     * @return its seq when it is an outcome the recording code may act on, else -1 (see {@link RunLog#record})
     */
    long record(LongFunction<Event> make) {
        if (engine.replay != null) {
            return runLog.record(seq -> {
                Event e = make.apply(seq);
                ExecutionStop stop = engine.replay.recorded(this, e);
                if (stop != null) {
                    throw stop;
                }
                return e;
            });
        }
        return runLog.record(make);
    }

    /** Makes everything buffered durable before the caller proceeds (group-committed with other runs). */
    void flush() {
        submit(RunStatus.RUNNING, null);
    }

    /**
     * Before a side effect: makes durable every outcome up to {@code seenSeq}, the last one the code about to
     * cause it may have acted on (-1: none, nothing to wait for). Outcomes other branches recorded since
     * need not wait: this code has not seen them.
     */
    void flushOutcomes(long seenSeq) {
        if (seenSeq >= 0) {
            checkWritable();
            await(runLog.through(seenSeq, RunStatus.RUNNING));
        }
    }

    private void submit(RunStatus status, TurnEnd end) {
        checkWritable();
        if (engine.replay != null) {
            throw engine.replay.suspended(this);
        }
        await(runLog.submit(status, end));
    }

    private void checkWritable() {
        if (phase == Phase.ABORTED) {
            throw new ExecutionStop(ExecutionStop.Reason.ABORTED); // an abandoned turn never writes
        }
    }

    /** Waits for an append of this run (null: nothing was written); a failed or fenced one aborts the turn. */
    private void await(CompletableFuture<AppendResult> future) {
        if (future == null) {
            return;
        }
        AppendResult result;
        engine.committer.help(future);
        try {
            result = future.join();
        } catch (CompletionException e) {
            abort("append failed: " + e.getCause());
            throw new ExecutionStop(ExecutionStop.Reason.ABORTED);
        }
        if (!result.appended()) {
            log.info(
                    "run {}: fenced off (log length {} on the world); another turn owns it", runId, result.logLength());
            abort("fenced off");
            throw new ExecutionStop(ExecutionStop.Reason.ABORTED);
        }
        if (result.cancelRequested()) {
            cancelRequested = true;
            if (terminationRequested()) {
                terminateRequested();
                throw new ExecutionStop(ExecutionStop.Reason.ABORTED);
            }
        }
    }

    /**
     * Whether the cancellation an append reported asks for termination, requested from another process while this
     * turn runs (a turn that begins with it never runs the code). Read only while the run is being canceled.
     */
    private boolean terminationRequested() {
        try {
            return engine.world
                    .runQueries()
                    .get(runId)
                    .map(RunInfo::cancelRequest)
                    .filter(RunInfo.CancelRequest::terminate)
                    .isPresent();
        } catch (RuntimeException e) {
            log.debug("run {}: could not read its cancellation ({})", runId, e.toString());
            return false;
        }
    }

    // ---------------------------------------------------------------- how the run ends

    boolean canceling() {
        return canceling;
    }

    boolean deadlinePassed() {
        return deadlinePassed;
    }

    NonDeterministicWorkflowException nondeterminism() {
        return nondeterminism;
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
            steps.interruptAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Commits the buffered events with the run's new status and ends the turn (next turn at {@code wakeAt}). */
    void endTurn(RunStatus status, Instant wakeAt) {
        submit(status, new TurnEnd(lease, wakeAt));
    }

    void setOutcome(Outcome o) {
        lock.lock();
        try {
            outcome = o;
        } finally {
            lock.unlock();
        }
    }
}
