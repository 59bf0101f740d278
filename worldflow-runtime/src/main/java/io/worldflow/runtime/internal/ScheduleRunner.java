package io.worldflow.runtime.internal;

import io.worldflow.Actors;
import io.worldflow.Payload;
import io.worldflow.ScheduleExistsException;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleNotFoundException;
import io.worldflow.ScheduleSpec;
import io.worldflow.StartOptions;
import io.worldflow.WorldflowException;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.internal.ScheduleBody.Action;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredSchedule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Schedules kept in a world: their writes (each a compare and set on the schedule's version, tried again when another
 * writer came first) and their fires. A fire is two writes around its actions: the first records what the fire decided
 * (its runs to start, a previous run to cancel) with the schedule due again at once, the actions follow (a run's id
 * derives from the schedule and its fire time, and creating it again creates nothing), and the second clears them. A
 * worker that dies between the two leaves the actions to whoever reads the schedule next, so a fire time starts its
 * run once, late at worst by a worker's look.
 */
public final class ScheduleRunner {

    private static final Logger log = LoggerFactory.getLogger(ScheduleRunner.class);
    private static final int ATTEMPTS = 20;
    /** Schedules one worker fires at once. */
    private static final int PARALLEL_FIRES = 32;
    /** Fire times a describe lists. */
    private static final int UPCOMING = 5;
    /** Fire times one backfill may start. */
    public static final int MAX_BACKFILL = FireDecision.MAX_FIRES;

    /** Requests a run's cancellation or termination; a run that has ended or gone is no error. */
    public interface Canceller {
        void cancel(String runId, String reason, boolean terminate);
    }

    private final ScheduleStore store;
    private final RunQueries runs;
    private final JsonCodec codec;
    private final InstantSource clock;
    private final Function<NewRun, CreateResult> create;
    private final Consumer<List<NewRun>> createAll;
    private final Canceller canceller;

    /** Who the calling thread acts as, recorded with each change of a schedule. */
    private final Supplier<String> actor;

    public ScheduleRunner(
            ScheduleStore store,
            RunQueries runs,
            JsonCodec codec,
            InstantSource clock,
            Function<NewRun, CreateResult> create,
            Consumer<List<NewRun>> createAll,
            Canceller canceller,
            Supplier<String> actor) {
        this.actor = actor;
        this.store = store;
        this.runs = runs;
        this.codec = codec;
        this.clock = clock;
        this.create = create;
        this.createAll = createAll;
        this.canceller = canceller;
    }

    // ---------------------------------------------------------------- writes

    /** Stores a new schedule, its first fire time the first after now. */
    public ScheduleInfo create(ScheduleSpec spec) {
        Instant now = clock.instant();
        Payload input = codec.encode(spec.input(), "input of schedule '" + spec.id() + "'");
        ScheduleBody body = ScheduleBody.of(spec, input, now);
        Instant first = firstFireAfter(spec, new FireTimes(spec, now), now);
        body = body.with(false, first, null, null, null, List.of()).changedBy(actor.get());
        StoredSchedule stored = new StoredSchedule(spec.id(), body.encode(), first, 1, now);
        if (!store.create(stored)) {
            throw new ScheduleExistsException(spec.id());
        }
        return info(stored);
    }

    /**
     * Replaces a schedule's spec, keeping where it stands (paused, last run); its next fire time is the new spec's
     * first after now.
     */
    public ScheduleInfo update(ScheduleSpec spec) {
        Payload input = codec.encode(spec.input(), "input of schedule '" + spec.id() + "'");
        return change(spec.id(), (b, now) -> {
            ScheduleBody next = b.withSpec(spec, input);
            Instant first = firstFireAfter(spec, new FireTimes(spec, b.createdAt()), now);
            return next.with(b.paused(), first, b.lastFireAt(), b.lastRunId(), b.buffered(), b.pending());
        });
    }

    /**
     * The schedule's first fire time after {@code now}, or null when it has none; a cron expression that names no time
     * at all (the 30th of February) is refused: stored, it would wait for ever without a word. One that has only ended
     * (its end, or a year, past) is taken: it is a schedule that is over.
     */
    private static Instant firstFireAfter(ScheduleSpec spec, FireTimes times, Instant now) {
        Instant first = times.after(now);
        if (first == null
                && spec.cron() != null
                && spec.endAt() == null
                && times.after(spec.startAt() != null ? spec.startAt() : Instant.EPOCH) == null) {
            throw new IllegalArgumentException("schedule '" + spec.id() + "': cron expression '" + spec.cron()
                    + "' names no time that exists, so it would never fire");
        }
        return first;
    }

    /** Stores {@code spec} as a new schedule or, when one of its id exists, as that schedule's new spec. */
    public ScheduleInfo createOrUpdate(ScheduleSpec spec) {
        for (int i = 0; i < ATTEMPTS; i++) {
            try {
                return create(spec);
            } catch (ScheduleExistsException e) {
                try {
                    return update(spec);
                } catch (ScheduleNotFoundException gone) {
                    // deleted in between: create it again
                }
            }
        }
        throw new WorldflowException("schedule '" + spec.id() + "' kept changing while it was being stored");
    }

    public ScheduleInfo pause(String id) {
        return change(
                id, (b, now) -> b.with(true, b.nextFireAt(), b.lastFireAt(), b.lastRunId(), b.buffered(), b.pending()));
    }

    /** Resumes a paused schedule from its first fire time after now: what it missed while paused starts nothing. */
    public ScheduleInfo resume(String id) {
        return change(id, (b, now) -> {
            if (!b.paused()) {
                return b;
            }
            Instant next = new FireTimes(b.spec(), b.createdAt()).after(now);
            return b.with(false, next, b.lastFireAt(), b.lastRunId(), b.buffered(), b.pending());
        });
    }

    /** Deletes the schedule; its record goes with it, so who deleted it is logged. */
    public void delete(String id) {
        if (!store.delete(id)) {
            throw new ScheduleNotFoundException(id);
        }
        log.info("schedule '{}' deleted by {}", id, actor.get());
    }

    /** Starts a run now, as if now were a fire time (the overlap policy applies), paused or not. */
    public Optional<String> trigger(String id) {
        String[] started = new String[1];
        change(id, (b, now) -> {
            Instant at = now.truncatedTo(ChronoUnit.MILLIS);
            ScheduleBody fired = FireDecision.fireAt(id, b, at, this::running);
            String runId = FireDecision.runId(id, at);
            boolean starts = fired.pending().stream()
                    .anyMatch(
                            a -> a.kind() == Action.Kind.START_NOW && a.runId().equals(runId));
            started[0] = starts ? runId : null;
            return fired;
        });
        settle(id);
        return Optional.ofNullable(started[0]);
    }

    /**
     * Starts a run for each fire time in {@code [from, to]}, whatever the overlap policy, each at most once however
     * often it is asked for (its id derives from the fire time). The schedule's own next fire time does not move.
     *
     * @throws IllegalArgumentException when {@code to} is before {@code from}, or the range holds more than
     *                                  {@link #MAX_BACKFILL} fire times (nothing is started)
     */
    public List<String> backfill(String id, Instant from, Instant to) {
        if (to.isBefore(from)) {
            throw new IllegalArgumentException(
                    "backfill of schedule '" + id + "': to " + to + " is before from " + from);
        }
        List<String> started = new ArrayList<>();
        change(id, (b, now) -> {
            FireTimes times = new FireTimes(b.spec(), b.createdAt());
            List<Instant> fires = times.between(from.minusMillis(1), to, MAX_BACKFILL + 1);
            if (fires.size() > MAX_BACKFILL) {
                throw new IllegalArgumentException("backfill of schedule '" + id + "' from " + from + " to " + to
                        + " holds more than " + MAX_BACKFILL + " fire times; ask for a shorter range");
            }
            started.clear();
            List<Action> actions = new ArrayList<>(b.pending());
            for (Instant f : fires) {
                String runId = FireDecision.runId(id, f);
                actions.add(new Action(Action.Kind.START_NOW, f, runId));
                started.add(runId);
            }
            return b.withPending(actions);
        });
        settle(id);
        return started;
    }

    // ---------------------------------------------------------------- reads

    /** Whether the schedule already is as {@code spec} says (its state aside). */
    public boolean sameSpec(ScheduleInfo current, ScheduleSpec spec) {
        Payload input = codec.encode(spec.input(), "input of schedule '" + spec.id() + "'");
        return current.spec().equals(spec.withInput(input));
    }

    public Optional<ScheduleInfo> find(String id) {
        return store.get(id).map(this::info);
    }

    public ScheduleInfo describe(String id) {
        return find(id).orElseThrow(() -> new ScheduleNotFoundException(id));
    }

    /** Schedules in id order, after {@code afterId} (null from the first). */
    public List<ScheduleInfo> list(String afterId, int limit) {
        return store.list(afterId, limit).stream().map(this::info).toList();
    }

    private ScheduleInfo info(StoredSchedule s) {
        ScheduleBody b = ScheduleBody.decode(s.id(), s.body());
        ScheduleSpec spec = b.specWithInput();
        List<Instant> upcoming = b.paused() || b.nextFireAt() == null
                ? List.of()
                : new FireTimes(spec, b.createdAt()).upcoming(b.nextFireAt(), UPCOMING);
        return new ScheduleInfo(
                spec,
                b.paused(),
                b.paused() ? null : b.nextFireAt(),
                upcoming,
                b.lastFireAt(),
                b.lastRunId(),
                b.buffered(),
                b.createdAt(),
                s.updatedAt(),
                b.changedBy());
    }

    // ---------------------------------------------------------------- fires

    /**
     * Fires the schedules due by now, at most {@code limit}.
     *
     * @return how many were due (as many as the limit: there may be more)
     */
    public int fireDue(int limit) {
        Instant now = clock.instant();
        List<StoredSchedule> due = store.due(now, limit);
        if (due.isEmpty()) {
            return 0;
        }
        // decided side by side (a decision may read whether a previous run goes on); the fires that only start runs,
        // nearly all of them, are then written together: their runs in one write, the schedules in another
        List<Planned> planned = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Semaphore permits = new Semaphore(PARALLEL_FIRES);
            for (StoredSchedule s : due) {
                permits.acquireUninterruptibly();
                pool.submit(() -> {
                    try {
                        Planned p = fire(s, now);
                        if (p != null) {
                            synchronized (planned) {
                                planned.add(p);
                            }
                        }
                    } catch (RuntimeException e) {
                        log.warn("schedule {}: fire failed ({}); it is tried again", s.id(), e.toString());
                    } finally {
                        permits.release();
                    }
                });
            }
        }
        if (!planned.isEmpty()) {
            try {
                startAll(planned, now);
            } catch (RuntimeException e) {
                log.warn(
                        "starting the runs of {} schedules failed ({}); they are tried again",
                        planned.size(),
                        e.toString());
            }
        }
        return due.size();
    }

    /** A fire that only starts runs: the schedule as read, and as it stands after the fire. */
    private record Planned(StoredSchedule stored, ScheduleBody before, ScheduleBody decided) {}

    /**
     * Starts the planned fires' runs, then records the fires. A worker that dies between the two leaves the fires to
     * the next look, which decides the same fire times and so the same run ids, whose creation then creates nothing.
     */
    private void startAll(List<Planned> planned, Instant now) {
        List<NewRun> runs = new ArrayList<>();
        for (Planned p : planned) {
            for (Action a : p.decided().pending()) {
                runs.add(newRun(p.stored().id(), p.before(), a));
            }
        }
        createAll.accept(runs);
        List<StoredSchedule> done = new ArrayList<>(planned.size());
        for (Planned p : planned) {
            ScheduleBody cleared = p.decided().withPending(List.of());
            done.add(p.stored().next(cleared.encode(), FireDecision.wake(cleared, now), now));
        }
        store.replaceAll(done);
    }

    /** The earliest instant at which a schedule wants a look, up to {@code horizon}; null when none does before it. */
    public Instant nextWake(Instant horizon) {
        List<StoredSchedule> first = store.due(horizon, 1);
        return first.isEmpty() ? null : first.getFirst().wakeAt();
    }

    /**
     * Decides a due schedule's fire. One that only starts runs is returned, to be started with others
     * ({@link #startAll}); any other (a previous run to cancel, actions left pending by a write) is done here, in two
     * writes around its actions.
     */
    private Planned fire(StoredSchedule s, Instant now) {
        ScheduleBody b = ScheduleBody.decode(s.id(), s.body());
        if (!b.pending().isEmpty()) {
            finish(s, b);
            return null;
        }
        FireDecision.Outcome o =
                FireDecision.decide(s.id(), b, new FireTimes(b.spec(), b.createdAt()), now, this::running);
        if (!o.body().pending().isEmpty() && o.body().pending().stream().allMatch(a -> a.kind() == Action.Kind.START)) {
            return new Planned(s, b, o.body());
        }
        StoredSchedule decided = s.next(o.body().encode(), o.wakeAt(), now);
        if (!store.replace(decided)) {
            return null; // another worker decided this fire
        }
        if (!o.body().pending().isEmpty()) {
            finish(decided, o.body());
        }
        return null;
    }

    /** Does a schedule's pending actions, then clears them, unless another writer came first. */
    private void finish(StoredSchedule s, ScheduleBody b) {
        for (Action a : b.pending()) {
            act(s.id(), b, a);
        }
        Instant now = clock.instant();
        ScheduleBody done = b.withPending(List.of());
        Instant wake = FireDecision.wake(done, now);
        store.replace(s.next(done.encode(), wake, now));
    }

    private void act(String id, ScheduleBody b, Action a) {
        switch (a.kind()) {
            case START, START_NOW -> create.apply(newRun(id, b, a));
            case CANCEL, TERMINATE ->
                canceller.cancel(
                        a.runId(),
                        "schedule '" + id + "': overlap policy " + b.spec().overlap() + " at fire time " + a.fireAt(),
                        a.kind() == Action.Kind.TERMINATE);
        }
    }

    /** The run a start action makes: due at its fire time after the jitter (at once when triggered, or late). */
    private NewRun newRun(String id, ScheduleBody b, Action a) {
        Instant now = clock.instant();
        Instant startAt = a.kind() == Action.Kind.START
                ? a.fireAt().plus(jitter(id, b.spec().jitter(), a.fireAt()))
                : now;
        return new NewRun(
                        a.runId(),
                        b.spec().workflow(),
                        b.input(),
                        now,
                        startAt.isAfter(now) ? startAt : now,
                        null,
                        b.spec().queue() != null ? b.spec().queue() : StartOptions.DEFAULT_QUEUE,
                        b.spec().priority(),
                        null,
                        null,
                        id,
                        a.fireAt())
                // a fire time of the schedule's own is the schedule's doing; a trigger or a backfill, whoever asked
                .withActor(
                        a.kind() == Action.Kind.START_NOW && b.changedBy() != null
                                ? b.changedBy()
                                : Actors.schedule(id))
                .withSearchAttributes(b.spec().searchAttributes());
    }

    /** A fire time's delay within the jitter: the same for the same schedule and fire time, on every worker. */
    static Duration jitter(String id, Duration jitter, Instant fireAt) {
        if (jitter.isZero()) {
            return Duration.ZERO;
        }
        long h = (id + "@" + fireAt).hashCode() & 0x7fffffffL;
        return Duration.ofMillis(h % Math.max(1, jitter.toMillis()));
    }

    private boolean running(String runId) {
        return runs.get(runId).map(r -> !r.isTerminal()).orElse(false);
    }

    /** Does what a write through the API left pending at once, rather than at a worker's next look. */
    private void settle(String id) {
        store.get(id).ifPresent(s -> {
            ScheduleBody b = ScheduleBody.decode(id, s.body());
            if (!b.pending().isEmpty()) {
                finish(s, b);
            }
        });
    }

    /** A change of the schedule's body, by compare and set, tried again when another writer came first. */
    private ScheduleInfo change(String id, Change change) {
        for (int i = 0; i < ATTEMPTS; i++) {
            StoredSchedule s = store.get(id).orElseThrow(() -> new ScheduleNotFoundException(id));
            Instant now = clock.instant();
            ScheduleBody b = ScheduleBody.decode(id, s.body());
            ScheduleBody changed = change.apply(b, now).changedBy(actor.get());
            Instant wake = FireDecision.wake(changed, now);
            StoredSchedule next = s.next(changed.encode(), wake, now);
            if (store.replace(next)) {
                return info(next);
            }
        }
        throw new WorldflowException("schedule '" + id + "' kept changing while it was being written; try again");
    }

    @FunctionalInterface
    private interface Change {
        ScheduleBody apply(ScheduleBody body, Instant now);
    }
}
