package io.worldflow.runtime.internal;

import io.worldflow.AsyncFunction;
import io.worldflow.BranchFunction;
import io.worldflow.ChildOptions;
import io.worldflow.ChildWorkflowFailedException;
import io.worldflow.DurableFuture;
import io.worldflow.ParallelOptions;
import io.worldflow.Payload;
import io.worldflow.RetryPolicy;
import io.worldflow.SearchAttributes;
import io.worldflow.SerializationException;
import io.worldflow.StepFunction;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowContext;
import io.worldflow.event.Event;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.internal.CurrentContext;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongFunction;

/**
 * The {@link WorkflowContext} of one scope of a run: the root, or one branch of a fan-out. Each
 * primitive takes the next deterministic id of its scope, checks it against the history (the
 * determinism check), returns a recorded outcome when there is one, and otherwise executes.
 */
final class RunContext implements WorkflowContext {

    final RunExecution exec;
    private final String scope;
    /** What cancels this scope's code: the run's cancellation, a lost race, nothing for a detached scope. */
    final CancelScope cancel;

    private final Map<String, Integer> occurrences = new HashMap<>();
    private int position;
    /**
     * The seq of the last outcome this scope's code may have acted on: its own, and its parent's up to the
     * fork; -1 for none recorded in this turn (a replayed outcome is durable already).
     */
    private long seenSeq;
    /** The primitive whose id this scope's code took last (null before the first), for what a replay reports. */
    private History.Kind lastKind;

    private String lastId;

    RunContext(RunExecution exec, String scope, long seenSeq, CancelScope cancel) {
        this.exec = exec;
        this.scope = scope;
        this.seenSeq = seenSeq;
        this.cancel = cancel;
    }

    /** Before this scope's code does something new: the run's cancellation, this scope's and the deadline. */
    void live() {
        exec.beginLive(cancel, this);
    }

    /** This scope's id path ("" for the root). */
    String scopeName() {
        return scope;
    }

    /** The last outcome this scope's code may have acted on (see {@link #seenSeq}). */
    long seenSeq() {
        return seenSeq;
    }

    /** After a fan-out: the parent's code has now seen what its branches saw. */
    void sawAlso(long branchSeenSeq) {
        seenSeq = Math.max(seenSeq, branchSeenSeq);
    }

    /** Buffers an event of this scope, noting it when it is an outcome the code acts on. */
    void record(LongFunction<Event> make) {
        seenSeq = Math.max(seenSeq, exec.record(make));
    }

    @Override
    public String runId() {
        return exec.runId;
    }

    @Override
    public String workflowName() {
        return exec.workflow.name();
    }

    @Override
    public boolean isReplaying() {
        return position < exec.history.count(scope);
    }

    /** Recorded primitives of this scope that the code has not reached (after it returned: a determinism violation). */
    int unvisitedRecorded() {
        return exec.history.count(scope) - position;
    }

    /** The id of the next primitive of this scope, checked against the history (the determinism check). */
    String nextId(String name, History.Kind kind) {
        exec.threads.checkActive();
        Ids.checkName(kind.name().toLowerCase(Locale.ROOT), name);
        int occurrence = occurrences.merge(name, 1, Integer::sum);
        String id = Ids.child(scope, name, occurrence);
        History.Recorded recorded = exec.history.at(scope, position);
        if (recorded != null && (!recorded.id.equals(id) || recorded.kind != kind)) {
            throw exec.nondeterministic("primitive #" + (position + 1) + " of " + scopeLabel() + " is "
                    + describe(recorded.kind, recorded.id) + " in the history (from seq "
                    + recorded.events.getFirst().seq() + "), but the code now asks for " + describe(kind, id));
        }
        if (recorded == null && exec.history.get(id) != null) {
            throw exec.nondeterministic(describe(kind, id) + " is recorded at another place in " + scopeLabel());
        }
        position++;
        lastKind = kind;
        lastId = id;
        return id;
    }

    /** What this scope's code does live, as a replay reports it: the primitive whose id it took last. */
    String lastTaken() {
        return lastId == null ? "the workflow's code" : describe(lastKind, lastId);
    }

    private String scopeLabel() {
        return scope.isEmpty() ? "the workflow" : "branch '" + scope + "'";
    }

    private static String describe(History.Kind kind, String id) {
        return kind.name().toLowerCase(Locale.ROOT) + " '" + id + "'";
    }

    // ---------------------------------------------------------------- steps

    @Override
    public <T> T step(String name, StepFunction<T> fn) {
        return step(name, StepOptions.defaults(), fn);
    }

    @Override
    public <T> T step(String name, StepOptions options, StepFunction<T> fn) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(fn, "fn");
        String id = nextId(name, History.Kind.STEP);
        History.Recorded recorded = exec.history.get(id);
        if (StepRun.ended(recorded)) {
            return StepRun.replay(this, id, recorded);
        }
        live();
        if (recorded == null) {
            record(seq -> new StepScheduled(exec.runId, seq, exec.now(), id, name));
        }
        return StepRun.run(this, id, options, fn, recorded);
    }

    @Override
    public int attempt() {
        StepAttempt info = StepAttempt.CURRENT.get();
        return info == null ? 1 : info.attempt;
    }

    @Override
    public String idempotencyKey() {
        return inStep("idempotencyKey()").key;
    }

    @Override
    public void heartbeat(Object details) {
        inStep("heartbeat()").beat(exec.now(), details);
    }

    @Override
    public Optional<Duration> stepTimeLeft() {
        StepAttempt info = inStep("stepTimeLeft()");
        if (info.limit == null) {
            return Optional.empty();
        }
        Duration left = Duration.between(exec.now(), info.limit);
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
    }

    private static StepAttempt inStep(String what) {
        StepAttempt info = StepAttempt.CURRENT.get();
        if (info == null) {
            throw new IllegalStateException(what + " is only available inside a step");
        }
        return info;
    }

    // ---------------------------------------------------------------- timers

    @Override
    public void sleep(String name, Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("sleep duration must not be negative, was " + duration);
        }
        timer(name, null, duration);
    }

    @Override
    public void sleepUntil(String name, Instant until) {
        timer(name, Objects.requireNonNull(until, "until"), null);
    }

    private void timer(String name, Instant until, Duration duration) {
        String id = nextId(name, History.Kind.TIMER);
        History.Recorded recorded = exec.history.get(id);
        if (recorded != null && recorded.has(TimerFired.class)) {
            return;
        }
        live();
        awaitTimer(id, scheduleTimer(id, name, recorded, until, duration));
    }

    /** When the timer fires: as recorded, or now recorded ({@code until}, or {@code duration} from now). */
    Instant scheduleTimer(String id, String name, History.Recorded recorded, Instant until, Duration duration) {
        if (recorded != null) {
            return recorded.first(TimerScheduled.class).fireAt();
        }
        Instant fireAt = until != null ? until : exec.now().plus(duration);
        record(seq -> new TimerScheduled(exec.runId, seq, exec.now(), id, name, fireAt));
        return fireAt;
    }

    /** Waits durably for a scheduled timer and records that it fired. */
    void awaitTimer(String id, Instant fireAt) {
        waitUntil(fireAt, false);
        record(seq -> new TimerFired(exec.runId, seq, exec.now(), id));
        if (exec.telemetry.on()) {
            exec.telemetry.timerFired(exec.runId, id, exec.recordedAt(id, TimerScheduled.class), fireAt, exec.now());
        }
    }

    /** Waits durably until {@code at} (never returns before it). */
    void waitUntil(Instant at, boolean signal) {
        while (true) {
            long generation = exec.threads.pokeCount();
            if (!exec.now().isBefore(at)) {
                return;
            }
            exec.threads.awaitDurable(generation, at, signal, cancel);
            live();
        }
    }

    // ---------------------------------------------------------------- signals

    @Override
    public <T> T awaitSignal(String name, Class<T> type) {
        // with no timeout, empty can only be a signal sent without a payload
        return awaitSignal(name, type, null).orElse(null);
    }

    @Override
    public <T> Optional<T> awaitSignal(String name, Class<T> type, Duration timeout) {
        Objects.requireNonNull(type, "type");
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("signal timeout must not be negative, was " + timeout);
        }
        String id = nextId(name, History.Kind.SIGNAL);
        History.Recorded recorded = exec.history.get(id);
        if (SignalWait.ended(recorded)) {
            return SignalWait.replay(this, id, recorded, type);
        }
        live();
        return SignalWait.receive(this, id, name, type, SignalWait.request(this, id, name, recorded, timeout));
    }

    // ---------------------------------------------------------------- fan-out

    @Override
    public <T, R> List<R> parallel(String name, List<T> items, BranchFunction<T, R> fn) {
        return parallel(name, items, ParallelOptions.defaults(), fn);
    }

    @Override
    public <T, R> List<R> parallel(String name, List<T> items, ParallelOptions options, BranchFunction<T, R> fn) {
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(fn, "fn");
        String id = nextId(name, History.Kind.PARALLEL);
        History.Recorded recorded = exec.history.get(id);
        if (recorded != null) {
            ParallelStarted started = recorded.first(ParallelStarted.class);
            if (started.branches() != items.size()) {
                throw exec.nondeterministic("parallel '" + id + "' has " + started.branches()
                        + " branches in the history but the code now gives " + items.size() + " items");
            }
        } else {
            live();
            record(seq -> new ParallelStarted(exec.runId, seq, exec.now(), id, name, items.size()));
        }
        List<R> results = new Fanout<>(exec, this, id, items, options, fn).run();
        if (recorded == null || !recorded.has(ParallelCompleted.class)) {
            record(seq -> new ParallelCompleted(exec.runId, seq, exec.now(), id));
        }
        return results;
    }

    // ---------------------------------------------------------------- polling

    @Override
    public <T> T awaitCondition(
            String name, Duration firstPause, Duration maxPause, StepOptions options, StepFunction<T> check) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(firstPause, "firstPause");
        Objects.requireNonNull(maxPause, "maxPause");
        Objects.requireNonNull(check, "check");
        if (firstPause.isNegative() || firstPause.isZero() || maxPause.compareTo(firstPause) < 0) {
            throw new IllegalArgumentException(
                    "awaitCondition needs 0 < firstPause <= maxPause, was " + firstPause + " and " + maxPause);
        }
        Ids.checkName("condition", name);
        if (name.length() > 94) {
            throw new IllegalArgumentException(
                    "condition name must be 1..94 characters (its pauses add '-pause'): '" + name + "'");
        }
        Duration pause = firstPause;
        while (true) {
            T value = step(name, options, check);
            if (value != null) {
                return value;
            }
            sleep(name + "-pause", pause);
            pause = pause.multipliedBy(2).compareTo(maxPause) > 0 ? maxPause : pause.multipliedBy(2);
        }
    }

    // ---------------------------------------------------------------- child runs

    @Override
    public <I, O> O child(String name, Workflow<I, O> workflow, I input) {
        return child(name, workflow, input, ChildOptions.defaults());
    }

    @Override
    public <I, O> O child(String name, Workflow<I, O> workflow, I input, ChildOptions options) {
        Objects.requireNonNull(workflow, "workflow");
        Objects.requireNonNull(options, "options");
        RetryPolicy retry = options.retry();
        if (retry == null) {
            String id = nextId(name, History.Kind.CHILD);
            return new ChildCall<>(exec, this, id, name, workflow, options).run(input);
        }
        // each attempt a child primitive of its own, each pause a timer: all recorded, so a replay goes the same way
        for (int attempt = 1; ; attempt++) {
            String suffix = attempt == 1 ? "" : "-retry-" + attempt;
            ChildOptions once = options.withRetry(null).withId(options.id() == null ? null : options.id() + suffix);
            try {
                return child(name + suffix, workflow, input, once);
            } catch (ChildWorkflowFailedException e) {
                if (e.isCanceled() || !ChildRuns.retryable(retry, e.error(), attempt)) {
                    throw e;
                }
                // the policy's jitter drawn from the attempt's number: the same pause on every replay
                sleep(name + "-backoff-" + attempt, retry.delayAfter(attempt, new SplittableRandom(attempt)));
            }
        }
    }

    // ---------------------------------------------------------------- async forms, races and scopes

    @Override
    public <T> DurableFuture<T> stepAsync(String name, StepFunction<T> fn) {
        return Async.step(this, name, StepOptions.defaults(), fn);
    }

    @Override
    public <T> DurableFuture<T> stepAsync(String name, StepOptions options, StepFunction<T> fn) {
        return Async.step(this, name, options, fn);
    }

    @Override
    public DurableFuture<Void> timer(String name, Duration duration) {
        return Async.timer(this, name, duration);
    }

    @Override
    public <T> DurableFuture<T> signalAsync(String name, Class<T> type) {
        return Async.signal(this, name, type);
    }

    @Override
    public <I, O> DurableFuture<O> childAsync(String name, Workflow<I, O> workflow, I input, ChildOptions options) {
        return Async.child(this, name, workflow, input, options);
    }

    @Override
    public <I, O> DurableFuture<O> childAsync(String name, Workflow<I, O> workflow, I input) {
        return Async.child(this, name, workflow, input, ChildOptions.defaults());
    }

    @Override
    public <T> DurableFuture<T> async(String name, AsyncFunction<T> fn) {
        return Async.scope(this, name, fn);
    }

    @Override
    public DurableFuture<?> race(String name, List<? extends DurableFuture<?>> contenders) {
        return Async.race(this, name, contenders);
    }

    @Override
    public void allOf(List<? extends DurableFuture<?>> futures) {
        Async.allOf(this, futures);
    }

    @Override
    public <T> T detached(String name, AsyncFunction<T> fn) {
        return Async.detached(this, name, fn);
    }

    @Override
    public <T> T continueAsNew(Object input) {
        if (!scope.isEmpty() || cancel != exec.rootScope) {
            throw new IllegalStateException(
                    "continueAsNew ends the run: call it from the workflow's own code, not from " + scopeLabel()
                            + " or a scope");
        }
        if (input != null && !exec.workflow.inputType().isInstance(input)) {
            throw new IllegalArgumentException("workflow '" + exec.workflow.name() + "' takes "
                    + exec.workflow.inputType().getName() + ", not "
                    + input.getClass().getName());
        }
        exec.beginLive(cancel, null); // the run's cancellation and deadline, with no primitive of its own
        throw exec.continueAsNew(new ContinueAsNew(input));
    }

    // ---------------------------------------------------------------- recorded values

    @Override
    public Instant now() {
        return marker("now", "now", Instant.class, () -> exec.now());
    }

    @Override
    public Random random() {
        long seed = marker(
                "random",
                "random",
                Long.class,
                () -> ThreadLocalRandom.current().nextLong());
        return new Random(seed);
    }

    @Override
    public UUID uuid() {
        return UUID.fromString(
                marker("uuid", "uuid", String.class, () -> UUID.randomUUID().toString()));
    }

    @Override
    public <T> T sideEffect(String name, StepFunction<T> fn) {
        Objects.requireNonNull(fn, "fn");
        return marker(name, "sideEffect", null, fn);
    }

    private <T> T marker(String name, String kind, Class<T> type, StepFunction<T> fn) {
        return Markers.value(this, name, kind, type, fn);
    }

    @Override
    public int version(String changeId, int minSupported, int maxSupported) {
        return Markers.version(this, changeId, minSupported, maxSupported);
    }

    // ---------------------------------------------------------------- search attributes

    @Override
    public SearchAttributes searchAttributes() {
        return exec.search.current();
    }

    @Override
    public void upsertSearchAttributes(SearchAttributes attributes) {
        Objects.requireNonNull(attributes, "attributes");
        RunSearch.update(this, attributes, List.of());
    }

    @Override
    public void removeSearchAttributes(String... names) {
        RunSearch.update(this, SearchAttributes.empty(), List.of(names));
    }

    // ---------------------------------------------------------------- helpers

    <T> T decodeRecorded(Payload payload, String what) {
        try {
            return exec.engine.codec.decode(payload, null, what + " of run '" + exec.runId + "'");
        } catch (SerializationException e) {
            throw new HeldException("recorded " + what + " can no longer be read: " + e.getMessage(), e);
        }
    }

    /** Runs {@code body} with this context as the thread's current one (for the static facade). */
    void enter() {
        CurrentContext.swap(this);
    }
}
