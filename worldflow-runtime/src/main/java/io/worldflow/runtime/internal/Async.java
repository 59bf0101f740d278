package io.worldflow.runtime.internal;

import io.worldflow.AsyncFunction;
import io.worldflow.CanceledException;
import io.worldflow.ChildOptions;
import io.worldflow.DurableFuture;
import io.worldflow.StepFunction;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.WorldflowException;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.RaceStarted;
import io.worldflow.event.RaceWon;
import io.worldflow.event.ScopeStarted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.TimerFired;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The async forms of the primitives, races and scopes. An async primitive takes its id and records its first event
 * on the thread of the code that starts it, in the code's order, as its synchronous form would; what follows (a
 * step's attempts, a wait) runs on a thread of its own, in a cancel scope of its own within the starting code's.
 *
 * <p>Only starting something new notices a cancel of the run: an async primitive the history shows started, replayed,
 * lets the code go on to where it waited before, so that a canceled run reaches its cleanup at the same place on
 * every replay.
 */
final class Async {

    private Async() {}

    static <T> DurableFuture<T> step(RunContext ctx, String name, StepOptions options, StepFunction<T> fn) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(fn, "fn");
        String id = ctx.nextId(name, History.Kind.STEP);
        History.Recorded recorded = ctx.exec.history.get(id);
        if (wasCanceled(recorded)) {
            return Pending.canceledBefore(ctx.exec, id);
        }
        if (StepRun.ended(recorded)) {
            return replayed(ctx, id, recorded, () -> StepRun.replay(ctx, id, recorded));
        }
        if (recorded == null) {
            ctx.live();
            ctx.record(seq -> new StepScheduled(ctx.exec.runId, seq, ctx.exec.now(), id, name));
        }
        return fork(ctx, id, forked(ctx, id), c -> StepRun.run(c, id, options, fn, recorded));
    }

    static DurableFuture<Void> timer(RunContext ctx, String name, Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("timer duration must not be negative, was " + duration);
        }
        String id = ctx.nextId(name, History.Kind.TIMER);
        History.Recorded recorded = ctx.exec.history.get(id);
        if (wasCanceled(recorded)) {
            return Pending.canceledBefore(ctx.exec, id);
        }
        if (recorded != null && recorded.has(TimerFired.class)) {
            return replayed(ctx, id, recorded, () -> null);
        }
        if (recorded == null) {
            ctx.live();
        }
        Instant fireAt = ctx.scheduleTimer(id, name, recorded, null, duration);
        return fork(ctx, id, forked(ctx, id), c -> {
            c.awaitTimer(id, fireAt);
            return null;
        });
    }

    static <T> DurableFuture<T> signal(RunContext ctx, String name, Class<T> type) {
        Objects.requireNonNull(type, "type");
        String id = ctx.nextId(name, History.Kind.SIGNAL);
        History.Recorded recorded = ctx.exec.history.get(id);
        if (wasCanceled(recorded)) {
            return Pending.canceledBefore(ctx.exec, id);
        }
        if (SignalWait.ended(recorded)) {
            return replayed(
                    ctx,
                    id,
                    recorded,
                    () -> SignalWait.replay(ctx, id, recorded, type).orElse(null));
        }
        if (recorded == null) {
            ctx.live();
        }
        Instant timeoutAt = SignalWait.request(ctx, id, name, recorded, null);
        return fork(
                ctx,
                id,
                forked(ctx, id),
                c -> SignalWait.receive(c, id, name, type, timeoutAt).orElse(null));
    }

    static <I, O> DurableFuture<O> child(
            RunContext ctx, String name, Workflow<I, O> workflow, I input, ChildOptions options) {
        Objects.requireNonNull(workflow, "workflow");
        Objects.requireNonNull(options, "options");
        if (options.retry() != null) {
            // its attempts and pauses are primitives of a scope of their own, run beside the starting code
            return scope(ctx, name, c -> c.child(name, workflow, input, options));
        }
        String id = ctx.nextId(name, History.Kind.CHILD);
        History.Recorded recorded = ctx.exec.history.get(id);
        if (wasCanceled(recorded)) {
            return Pending.canceledBefore(ctx.exec, id);
        }
        ChildCall<I, O> call = new ChildCall<>(ctx.exec, ctx, id, name, workflow, options);
        ChildCall.Begun begun = call.begin(input);
        if (begun.ended()) {
            return replayed(ctx, id, recorded, call::replay);
        }
        Pending<O> p = fork(ctx, id, forked(ctx, id), c -> call.await(c, begun.childRunId()));
        p.onCancel(() -> call.abandon(begun.childRunId()));
        return p;
    }

    static <T> DurableFuture<T> scope(RunContext ctx, String name, AsyncFunction<T> fn) {
        Objects.requireNonNull(fn, "fn");
        String id = ctx.nextId(name, History.Kind.SCOPE);
        History.Recorded recorded = ctx.exec.history.get(id);
        checkScope(ctx, id, recorded, false);
        if (wasCanceled(recorded)) {
            return Pending.canceledBefore(ctx.exec, id);
        }
        if (recorded == null) {
            ctx.live();
            ctx.record(seq -> new ScopeStarted(ctx.exec.runId, seq, ctx.exec.now(), id, name, 0));
        }
        RunContext inner = new RunContext(ctx.exec, id, ctx.seenSeq(), ctx.cancel.child(id));
        return fork(ctx, id, inner, c -> body(c, id, fn));
    }

    static <T> T detached(RunContext ctx, String name, AsyncFunction<T> fn) {
        Objects.requireNonNull(fn, "fn");
        String id = ctx.nextId(name, History.Kind.SCOPE);
        History.Recorded recorded = ctx.exec.history.get(id);
        checkScope(ctx, id, recorded, true);
        if (recorded == null) {
            // no live check: a detached scope runs after its run's cancellation too
            ctx.record(seq -> new ScopeStarted(ctx.exec.runId, seq, ctx.exec.now(), id, name, 1));
        }
        RunContext inner = new RunContext(ctx.exec, id, ctx.seenSeq(), CancelScope.detached(id));
        inner.enter();
        try {
            return body(inner, id, fn);
        } finally {
            ctx.sawAlso(inner.seenSeq());
            ctx.enter();
        }
    }

    /**
     * Waits for the first of {@code contenders} to end, records which, and cancels the others: a replay returns the
     * same winner, whatever order the outcomes come in then.
     */
    static DurableFuture<?> race(RunContext ctx, String name, List<? extends DurableFuture<?>> contenders) {
        List<Pending<?>> all = own(ctx, "race", name, contenders);
        String id = ctx.nextId(name, History.Kind.RACE);
        List<String> ids = all.stream().map(Pending::id).toList();
        History.Recorded recorded = ctx.exec.history.get(id);
        RaceStarted started = recorded == null ? null : recorded.first(RaceStarted.class);
        if (started != null && !started.contenders().equals(ids)) {
            throw ctx.exec.nondeterministic("race '" + id + "' is between " + started.contenders()
                    + " in the history, but the code now races " + ids);
        }
        RaceWon won = recorded == null ? null : recorded.first(RaceWon.class);
        if (started == null) {
            ctx.live();
            ctx.record(seq -> new RaceStarted(ctx.exec.runId, seq, ctx.exec.now(), id, name, ids));
        }
        Pending<?> winner;
        if (won != null) {
            winner = all.get(won.winner());
        } else {
            ctx.exec.threads.awaitInMemory(ctx.cancel, () -> all.stream().anyMatch(Pending::settled));
            ctx.exec.threads.checkActive();
            winner = first(ctx, all);
            if (winner == null) {
                if (ctx.cancel.isCanceled()) {
                    throw ctx.cancel.exception(ctx.exec.runId);
                }
                throw new CanceledException(
                        id, "every contender of race '" + id + "' of run '" + ctx.exec.runId + "' was canceled");
            }
            int index = all.indexOf(winner);
            String winnerId = winner.id();
            ctx.record(seq -> new RaceWon(ctx.exec.runId, seq, ctx.exec.now(), id, index, winnerId));
        }
        for (Pending<?> p : all) {
            if (p != winner) {
                p.cancel(ctx, "lost race '" + id + "'");
            }
        }
        return winner;
    }

    /** Waits for every one of {@code futures} to end; then their failures, if any, are thrown as {@code get} throws. */
    static void allOf(RunContext ctx, List<? extends DurableFuture<?>> futures) {
        if (Objects.requireNonNull(futures, "futures").isEmpty()) {
            return; // every one of none has ended: a list built from data may be empty
        }
        List<Pending<?>> all = own(ctx, "allOf", null, futures);
        ctx.exec.threads.awaitInMemory(ctx.cancel, () -> all.stream().allMatch(Pending::settled));
        for (Pending<?> p : all) {
            p.get();
        }
    }

    // ---------------------------------------------------------------- helpers

    private static boolean wasCanceled(History.Recorded recorded) {
        return recorded != null && recorded.has(PrimitiveCanceled.class);
    }

    private static void checkScope(RunContext ctx, String id, History.Recorded recorded, boolean detached) {
        ScopeStarted started = recorded == null ? null : recorded.first(ScopeStarted.class);
        if (started != null && (started.detached() != 0) != detached) {
            throw ctx.exec.nondeterministic("scope '" + id + "' is " + (detached ? "an async" : "a detached")
                    + " scope in the history, but the code now makes it " + (detached ? "detached" : "async"));
        }
    }

    private static <T> Pending<T> replayed(RunContext ctx, String id, History.Recorded recorded, Supplier<T> outcome) {
        return Pending.replayed(ctx.exec, id, recorded.events.getLast().seq(), outcome);
    }

    /** The context a primitive's own thread runs in: the starting code's scope, in a cancel scope of its own. */
    private static RunContext forked(RunContext ctx, String id) {
        return new RunContext(ctx.exec, ctx.scopeName(), ctx.seenSeq(), ctx.cancel.child(id));
    }

    private static <T> Pending<T> fork(RunContext ctx, String id, RunContext forked, Function<RunContext, T> body) {
        Pending<T> p = new Pending<>(ctx.exec, id, forked.cancel);
        ctx.exec.threads.spawn(id, () -> {
            forked.enter();
            try {
                p.complete(body.apply(forked), forked.seenSeq());
            } catch (ExecutionStop stop) {
                throw stop;
            } catch (Throwable e) {
                p.fail(e, forked.seenSeq());
            }
        });
        return p;
    }

    private static <T> T body(RunContext inner, String id, AsyncFunction<T> fn) {
        T value;
        try {
            value = fn.apply(inner);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new WorldflowException("scope '" + id + "' threw: " + e, e);
        }
        if (inner.unvisitedRecorded() > 0) {
            throw inner.exec.nondeterministic("scope '" + id + "' returned, but its history holds "
                    + inner.unvisitedRecorded() + " more primitive(s) the code no longer reaches");
        }
        return value;
    }

    /** The first contender to have ended (null when none has, only canceled ones), read under the run's lock. */
    private static Pending<?> first(RunContext ctx, List<Pending<?>> all) {
        List<Pending<?>> best = new ArrayList<>(1);
        ctx.exec.threads.update(() -> {
            Pending<?> min = null;
            for (Pending<?> p : all) {
                if (p.rank() != Long.MAX_VALUE && (min == null || p.rank() < min.rank())) {
                    min = p;
                }
            }
            if (min != null) {
                best.add(min);
            }
            return false;
        });
        return best.isEmpty() ? null : best.getFirst();
    }

    private static List<Pending<?>> own(
            RunContext ctx, String what, String name, List<? extends DurableFuture<?>> futures) {
        Objects.requireNonNull(futures, "futures");
        // a race is named, allOf is not
        String named = name == null ? what : what + " '" + name + "'";
        if (futures.isEmpty()) {
            throw new IllegalArgumentException(named + " needs at least one future");
        }
        List<Pending<?>> all = new ArrayList<>(futures.size());
        var seen = new HashSet<DurableFuture<?>>();
        for (DurableFuture<?> f : futures) {
            if (!(f instanceof Pending<?> p) || p.exec() != ctx.exec) {
                throw new IllegalArgumentException(
                        named + " is given a future that is not of this run: " + (f == null ? "null" : f.id()));
            }
            if (!seen.add(f)) {
                throw new IllegalArgumentException(named + " is given future '" + f.id() + "' twice");
            }
            all.add(p);
        }
        return all;
    }
}
