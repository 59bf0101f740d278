package io.worldflow.runtime.internal;

import io.worldflow.CatchUpPolicy;
import io.worldflow.OverlapPolicy;
import io.worldflow.ScheduleSpec;
import io.worldflow.runtime.internal.ScheduleBody.Action;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a schedule does when a worker finds it due: which fire times start runs (its catch-up policy for the ones
 * missed, its overlap policy while a previous run goes on), what becomes of a previous run, and where the schedule then
 * stands. A pure function of the schedule, the time and whether a run still runs, so that any worker decides the same.
 */
final class FireDecision {

    /** A fire time found more than this far past was missed (Quartz's default misfire threshold). */
    static final Duration MISFIRE_THRESHOLD = Duration.ofMinutes(1);
    /** Fire times one decision handles at most; a schedule with more is due again at once. */
    static final int MAX_FIRES = 1_000;
    /** How often a schedule with a buffered fire time looks whether the previous run has ended. */
    static final Duration BUFFER_CHECK = Duration.ofSeconds(1);
    /**
     * How long before a fire time a worker decides it, when no previous run goes on: the run is created then, due at
     * its fire time, and begins on time like any sleeping run, however many schedules share that second.
     */
    static final Duration LEAD = Duration.ofMillis(500);

    private FireDecision() {}

    /** The schedule after the decision (its actions pending) and when a worker must look at it next. */
    record Outcome(ScheduleBody body, Instant wakeAt) {}

    /**
     * @param running whether the run of this id has not finished
     */
    static Outcome decide(String id, ScheduleBody b, FireTimes times, Instant now, Predicate<String> running) {
        if (b.paused() || (b.nextFireAt() == null && b.buffered() == null)) {
            return new Outcome(b, wake(b, now));
        }
        State s = new State(id, b, running);
        if (b.buffered() != null && !s.previousRuns()) {
            s.start(b.buffered());
            s.buffered = null;
        }
        Instant next = b.nextFireAt();
        // ahead of the fire time only when the overlap policy cannot depend on what happens until then
        boolean ahead = s.buffered == null && (b.spec().overlap() == OverlapPolicy.ALLOW_ALL || !s.previousRuns());
        Instant horizon = ahead ? now.plus(LEAD) : now;
        if (next != null && !ahead && next.isAfter(now) && !next.isAfter(now.plus(LEAD))) {
            return new Outcome(b, next); // a previous run goes on: decide at the fire time itself
        }
        if (next != null && !next.isAfter(horizon)) {
            List<Instant> due = new ArrayList<>();
            due.add(next);
            due.addAll(times.between(next, horizon, MAX_FIRES - 1));
            Instant last = due.getLast();
            boolean more = due.size() == MAX_FIRES;
            Instant waiting = null;
            for (Instant f : chosen(b, due, now)) {
                if (inTurn(b.spec()) && s.previousRuns()) {
                    waiting = f; // it and those after it start in turn, as the runs before them end
                    break;
                }
                s.fire(f);
            }
            if (waiting != null) {
                ScheduleBody inTurn = s.body(waiting);
                return new Outcome(inTurn, wake(inTurn, now));
            }
            next = more ? times.after(last) : times.after(horizon.isAfter(last) ? horizon : last);
            if (more) {
                // the rest of the missed fire times are decided at once, in another round
                return new Outcome(s.body(next), now);
            }
        }
        ScheduleBody after = s.body(next);
        return new Outcome(after, wake(after, now));
    }

    /**
     * A fire outside the schedule's own times (a trigger) at {@code at}: the overlap policy applies, the next fire
     * time stays, and the actions join those pending.
     */
    static ScheduleBody fireAt(String id, ScheduleBody b, Instant at, Predicate<String> running) {
        State s = new State(id, b, running);
        s.fire(at);
        s.actions.replaceAll(
                a -> a.kind() == Action.Kind.START ? new Action(Action.Kind.START_NOW, a.fireAt(), a.runId()) : a);
        List<Action> actions = new ArrayList<>(b.pending());
        actions.addAll(s.actions);
        return b.with(b.paused(), b.nextFireAt(), s.lastFireAt, s.lastRunId, s.buffered, actions);
    }

    /**
     * When a worker must look at the schedule next: at once while actions are pending, never while paused, else
     * {@link #LEAD} before its next fire time, or sooner while a buffered fire time waits for the previous run to end.
     */
    static Instant wake(ScheduleBody b, Instant now) {
        if (!b.pending().isEmpty()) {
            return now;
        }
        if (b.paused()) {
            return null;
        }
        Instant ahead = b.nextFireAt() == null ? null : b.nextFireAt().minus(LEAD);
        if (ahead != null && ahead.isBefore(now) && inTurn(b.spec())) {
            // a fire time past already waits for the run before it to end ({@link #inTurn}): look again soon
            return now.plus(BUFFER_CHECK);
        }
        return b.buffered() != null ? earliest(ahead, now.plus(BUFFER_CHECK)) : ahead;
    }

    /**
     * Whether the schedule's fire times start their runs in turn rather than side by side: with catch-up {@code ALL}
     * every fire time within the catch-up window gets its run, and an overlap policy that runs one at a time
     * ({@code SKIP}, {@code BUFFER_ONE}) then makes each wait for the run before it to end instead of dropping it.
     */
    static boolean inTurn(ScheduleSpec spec) {
        return spec.catchUp() == CatchUpPolicy.ALL
                && (spec.overlap() == OverlapPolicy.SKIP || spec.overlap() == OverlapPolicy.BUFFER_ONE);
    }

    /**
     * The due fire times that start runs. Only the newest of them can be on time (past by less than
     * {@link #MISFIRE_THRESHOLD}): when several are due at once, the worker was away for longer than the schedule's
     * period, and the earlier ones were missed. Of the missed ones within the catch-up window the policy decides:
     * {@code LATEST} starts only the newest fire time (on time or not), {@code ALL} each one, oldest first, {@code NONE}
     * none but the one on time. Under {@code CANCEL_PREVIOUS} or {@code TERMINATE_PREVIOUS} only the newest starts,
     * since each would cancel the one before it at once.
     */
    private static List<Instant> chosen(ScheduleBody b, List<Instant> due, Instant now) {
        Instant missedBefore = now.minus(MISFIRE_THRESHOLD);
        Instant tooOld = now.minus(b.spec().catchUpWindow());
        Instant newest = due.getLast();
        Instant onTime = newest.isBefore(missedBefore) ? null : newest;
        List<Instant> missed = new ArrayList<>();
        for (Instant f : due) {
            if (f != onTime && !f.isBefore(tooOld)) {
                missed.add(f);
            }
        }
        List<Instant> out = new ArrayList<>();
        switch (b.spec().catchUp()) {
            case ALL -> out.addAll(missed);
            case LATEST -> {
                if (onTime == null && !missed.isEmpty()) {
                    out.add(missed.getLast());
                }
            }
            case NONE -> {}
        }
        if (onTime != null) {
            out.add(onTime);
        }
        OverlapPolicy overlap = b.spec().overlap();
        if (out.size() > 1
                && (overlap == OverlapPolicy.CANCEL_PREVIOUS || overlap == OverlapPolicy.TERMINATE_PREVIOUS)) {
            return List.of(out.getLast());
        }
        return out;
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    /** The state a decision builds up, fire time by fire time. */
    private static final class State {
        final String id;
        final ScheduleBody b;
        final Predicate<String> running;
        final List<Action> actions = new ArrayList<>();
        Instant lastFireAt;
        String lastRunId;
        Instant buffered;
        /** Whether a run this decision starts is now the previous run. */
        boolean startedHere;

        State(String id, ScheduleBody b, Predicate<String> running) {
            this.id = id;
            this.b = b;
            this.running = running;
            this.lastFireAt = b.lastFireAt();
            this.lastRunId = b.lastRunId();
            this.buffered = b.buffered();
        }

        boolean previousRuns() {
            return startedHere || (lastRunId != null && running.test(lastRunId));
        }

        void fire(Instant f) {
            OverlapPolicy policy = b.spec().overlap();
            if (policy == OverlapPolicy.ALLOW_ALL || !previousRuns()) {
                start(f);
                return;
            }
            switch (policy) {
                case SKIP -> {}
                case BUFFER_ONE -> {
                    if (buffered == null) {
                        buffered = f;
                    }
                }
                case CANCEL_PREVIOUS, TERMINATE_PREVIOUS -> {
                    actions.add(new Action(
                            policy == OverlapPolicy.CANCEL_PREVIOUS ? Action.Kind.CANCEL : Action.Kind.TERMINATE,
                            f,
                            lastRunId));
                    start(f);
                }
                default -> throw new IllegalStateException(policy.name());
            }
        }

        void start(Instant f) {
            String runId = runId(id, f);
            actions.add(new Action(Action.Kind.START, f, runId));
            lastFireAt = f;
            lastRunId = runId;
            startedHere = true;
        }

        ScheduleBody body(Instant next) {
            return b.with(false, next, lastFireAt, lastRunId, buffered, actions);
        }
    }

    /** The run a fire time of schedule {@code id} starts: one id per fire time, so a fire time starts one run. */
    static String runId(String id, Instant fireAt) {
        return id + "@" + fireAt;
    }
}
