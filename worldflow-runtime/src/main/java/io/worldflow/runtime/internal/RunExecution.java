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
import io.worldflow.runtime.internal.telemetry.TurnTelemetry;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SearchValues;
import io.worldflow.spi.TurnEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

/**
 * One turn of one run in this worker: the workflow code runs on virtual threads (the main one and one
 * per fan-out branch) against the run's history. Known outcomes come from the history; new ones are
 * executed, buffered as events and appended through the group committer. The run stays in memory
 * between steps (no replay per step). When every thread waits on something durable (a timer, a
 * signal, a retry's backoff) the turn ends: pending events and the next wake-up are committed in one
 * append, the threads unwind, and no thread is held until the next turn ({@link TurnThreads} keeps the threads and
 * their waits; this class, what the turn reads and writes).
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

    /** The turn's threads and their waits. */
    final TurnThreads threads = new TurnThreads(this);
    /** The scope of the workflow code, which the run's cancellation cancels. */
    final CancelScope rootScope = CancelScope.root(this);
    /** Threads running a step's code: a cancel of the code that runs it interrupts them. */
    final StepThreads steps = new StepThreads();

    private volatile boolean cancelRequested;
    private volatile boolean canceling;
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
        if (telemetry.on()) {
            threads.done()
                    .whenComplete((o, e) ->
                            telemetry.ended(o == null ? "aborted" : o.name().toLowerCase(Locale.ROOT)));
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

    // ---------------------------------------------------------------- lifecycle

    /** Starts the workflow code on its main virtual thread. */
    void start() {
        if (terminated()) {
            threads.spawn("terminated", () -> new RunEnding(this).terminated());
            return;
        }
        RunContext root = new RunContext(this, "", -1, rootScope);
        threads.spawn("main", () -> runMain(root));
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
        threads.abort("terminated");
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
            } catch (PayloadKeyException e) {
                throw e; // held as it is, naming the key: the code did not change, a key is missing
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

    // ---------------------------------------------------------------- checks used by primitives

    /**
     * Before a primitive of code in {@code scope} does something new: the run's cancellation and the deadline are
     * noticed here, and code of a canceled scope is told so.
     *
     * @param where the code about to do something new, or null for the run's end, which does nothing new
     */
    void beginLive(CancelScope scope, RunContext where) {
        threads.checkActive();
        if (cancelRequested && !canceling) {
            canceling = true;
            threads.poke();
            steps.interruptCanceled();
        }
        if (scope.isCanceled()) {
            throw scope.exception(runId);
        }
        Instant deadline = info.deadline();
        if (deadline != null && !engine.clock.instant().isBefore(deadline)) {
            threads.deadlineReached();
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

    /** The run's cancellation was requested: noticed now, its waits woken and its running steps interrupted. */
    void cancelRequested() {
        cancelRequested = true;
        canceling = true;
        canceled();
    }

    /** Wakes the waits of a scope just canceled, and interrupts its steps. */
    void canceled() {
        threads.poke();
        steps.interruptCanceled();
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
        if (threads.aborted()) {
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
            threads.abort("append failed: " + e.getCause());
            throw new ExecutionStop(ExecutionStop.Reason.ABORTED);
        }
        if (!result.appended()) {
            log.info(
                    "run {}: fenced off (log length {} on the world); another turn owns it", runId, result.logLength());
            threads.abort("fenced off");
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

    NonDeterministicWorkflowException nondeterminism() {
        return nondeterminism;
    }

    /** Commits the buffered events with the run's new status and ends the turn (next turn at {@code wakeAt}). */
    void endTurn(RunStatus status, Instant wakeAt) {
        submit(status, new TurnEnd(lease, wakeAt));
    }
}
