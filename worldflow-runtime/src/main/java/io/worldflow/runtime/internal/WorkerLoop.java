package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.RunInfo;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TaskQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Claims run turns and executes them: at most {@code concurrency} at once, leases kept alive by a
 * heartbeat, woken by the world's push notices or at the next due time, polling only as a fallback.
 */
public final class WorkerLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkerLoop.class);
    private static final int MAX_LEASE_BATCH = 64;
    /** How long a nearly full worker waits for more free slots before leasing. */
    private static final Duration GATHER = Duration.ofMillis(5);
    /**
     * How far ahead of a turn's due time the worker claims it, at most: the run is read and replayed
     * meanwhile and waits in memory for the rest, so that it resumes on time instead of after a lease, a
     * read and a replay. Capped at half the sticky wait, within which a turn waits in memory.
     */
    private static final Duration MAX_LOOKAHEAD = Duration.ofMillis(50);

    /** What one worker does; see {@code WorkerOptions} for meanings. */
    public record Settings(
            String workerId,
            int concurrency,
            Set<String> queues,
            Duration lease,
            Duration pollInterval,
            Duration shutdownGrace) {}

    private final Engine engine;
    private final Settings settings;
    private final TaskQueue tasks;
    /**
     * A run this worker is executing; {@code exec} is null while its history loads. A turn leased again
     * while the previous one still unwinds waits in {@code next} (guarded by the slot).
     */
    private static final class Slot {
        /** The queue of the turn it holds: counted against the queue's limit per worker. */
        final String queue;

        volatile RunExecution exec;
        Lease next;
        boolean closed;

        Slot(String queue) {
            this.queue = queue;
        }
    }

    private final Map<String, Slot> active = new ConcurrentHashMap<>();
    /** Slots lent by runs that wait in memory for their children ({@link #lend}). */
    private final AtomicInteger lent = new AtomicInteger();
    /** What the loop is leasing for and whether a run started here may start at once; its monitor guards both. */
    private final Slots slots;
    /** The queues that limit how many of their turns this worker executes at once. */
    private final WorkerShares shares;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private boolean signaled;
    private volatile boolean stopping;
    private volatile boolean pokeSignalWaiters;
    private final Wakes wakes;
    /** A due instant passed: the world may have more due soon after it that it announced only as the earliest. */
    private volatile boolean timerWoke;
    /** Free slots worth a lease when the worker is busy: an eighth of its concurrency (at least 1). */
    private final int refill;

    private final Duration lookahead;
    /** When the loop last asked the world for the next due time (nanoTime); only the loop thread uses it. */
    private long lastNextDue = System.nanoTime() - Duration.ofDays(1).toNanos();

    private final Thread thread;
    private final ScheduledExecutorService heartbeat;
    private final TaskQueue.Subscription subscription;

    public WorkerLoop(Engine engine, Settings settings) {
        this.engine = engine;
        this.settings = settings;
        this.refill = Math.max(1, Math.min(MAX_LEASE_BATCH, settings.concurrency() / 8));
        this.slots = new Slots(settings.concurrency(), MAX_LEASE_BATCH);
        this.shares = new WorkerShares(engine.queues, settings.queues());
        Duration halfSticky = engine.stickyWait.dividedBy(2);
        this.lookahead = halfSticky.compareTo(MAX_LOOKAHEAD) < 0 ? halfSticky : MAX_LOOKAHEAD;
        this.wakes = new Wakes(engine.scheduler, () -> {
            timerWoke = true;
            signal();
        });
        this.tasks = engine.world.taskQueue();
        engine.worker = this;
        engine.committer.startHere(this);
        engine.queues.movedBy(this::moveAdmitted, this::roomAhead);
        engine.telemetry.activeTurns(active::size);
        this.subscription = tasks.subscribe(this::dueAt);
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "worldflow-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long beat = Math.max(50, settings.lease().toMillis() / 3);
        heartbeat.scheduleWithFixedDelay(this::heartbeat, beat, beat, TimeUnit.MILLISECONDS);
        this.thread = Thread.ofPlatform().name("worldflow-worker").daemon().start(this::loop);
        log.info(
                "worker {} started: concurrency {}, queues {}, lease {}",
                settings.workerId(),
                settings.concurrency(),
                settings.queues(),
                settings.lease());
    }

    public int activeRuns() {
        return active.size();
    }

    /** Whether this worker leases turns of queue {@code queue}. */
    boolean serves(String queue) {
        return settings.queues().contains(queue);
    }

    /** The slots the runs held here take: all of them but those lent to children ({@link #lend}). */
    private int held() {
        return active.size() - lent.get();
    }

    /**
     * A run in memory whose every thread waits for its children lends them its slot until one of its threads goes
     * on: a worker full of parents would otherwise keep their children waiting until the parents leave memory. A
     * parent that wakes runs again at once, so for a moment one more run than the concurrency may execute.
     */
    void lend() {
        lent.incrementAndGet();
        signal();
    }

    /** The run that {@link #lend lent} its slot goes on. */
    void reclaim() {
        lent.decrementAndGet();
    }

    /**
     * The world's push notice. It may come on any thread, even one inside a write a run is waiting
     * for, so it only sets flags and wakes the loop; run locks are taken elsewhere.
     */
    private void dueAt(Instant at) {
        Instant now = engine.clock.instant();
        if (!at.isAfter(now)) {
            pokeSignalWaiters = true;
            signal();
        } else if (!at.isAfter(now.plus(lookahead))) {
            signal();
        } else {
            scheduleWake(at);
        }
    }

    /**
     * Lets run {@code runId} look for signals again when it is in memory here: a signal this process sent it (a
     * child's end) that the world announces to nobody while the run's turn is leased.
     */
    void poke(String runId) {
        RunExecution e = inMemory(runId);
        if (e != null && e.hasSignalWaiters()) {
            e.poke();
        }
    }

    /**
     * The run's cancellation (or with {@code terminate}, its termination) was requested through this process: a turn
     * of it in memory notices now, rather than at its next append. Canceled, it wakes its waits and interrupts its
     * running steps; terminated, it stops without writing anything more and hands its lease back, so that the next
     * turn ends the run without its code. A run in memory elsewhere notices it there at its next append or turn.
     */
    public void cancelRequested(String runId, boolean terminate) {
        RunExecution e = inMemory(runId);
        if (e != null && terminate) {
            e.terminateRequested();
        } else if (e != null) {
            e.cancelRequested();
        }
    }

    /** The run's turn in memory here, or null. */
    private RunExecution inMemory(String runId) {
        Slot slot = active.get(runId);
        return slot == null ? null : slot.exec;
    }

    /** A signal may have arrived for a run in memory that waits for one: let it look again. */
    private void pokeSignalWaiters() {
        pokeSignalWaiters = false;
        List<RunExecution> waiting = new ArrayList<>();
        for (Slot slot : active.values()) {
            RunExecution e = slot.exec;
            if (e != null && e.hasSignalWaiters()) {
                waiting.add(e);
            }
        }
        if (!waiting.isEmpty()) {
            Thread.startVirtualThread(() -> waiting.forEach(RunExecution::poke));
        }
    }

    /**
     * Wakes the loop when a turn due at {@code at} can be claimed: {@link #lookahead} before it, or at
     * {@code at} itself when that is already past (an instant the world names that a lease just now did
     * not claim is a lease's expiry, which only passing time makes claimable).
     */
    private void scheduleWake(Instant at) {
        Instant early = at.minus(lookahead);
        wakes.add(early.isAfter(engine.clock.instant()) ? early : at);
    }

    private void signal() {
        lock.lock();
        try {
            signaled = true;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        // beside the loop, which leases meanwhile: a new deploy's own work does not wait for the look
        Thread.ofVirtual()
                .name("wf-held-runs")
                .start(() -> HeldRuns.retry(engine.world, engine.registry.names(), engine.clock.instant()));
        long failures = 0;
        while (!stopping) {
            if (pokeSignalWaiters) {
                pokeSignalWaiters();
            }
            int free = settings.concurrency() - held();
            if (free > 0 && free < refill) {
                free = gather();
            }
            int want = free > 0 ? beginLeasing() : 0;
            if (want > 0) {
                LeasedRuns leased;
                try {
                    leased = leaseTurns(want);
                    failures = 0;
                } catch (RuntimeException e) {
                    doneLeasing(want, -1);
                    failures++;
                    long backoff = Math.min(5_000, 50L << Math.min(failures, 7));
                    log.warn("leasing work failed ({}); retrying in {} ms", e.toString(), backoff);
                    idle(Duration.ofMillis(backoff));
                    continue;
                }
                List<Lease> leases = leased.leases();
                List<Fresh> fresh = new ArrayList<>(leases.size());
                for (Lease l : leases) {
                    if (pastItsQueueLimit(l)) {
                        tasks.release(l);
                        continue;
                    }
                    Slot slot = begin(l);
                    if (slot != null) {
                        fresh.add(new Fresh(slot, l, null));
                    }
                }
                doneLeasing(want, leases.size());
                if (!fresh.isEmpty()) {
                    Thread.ofVirtual().name("wf-start").start(() -> startFresh(fresh, leased.runs()));
                }
                if (leases.size() == want) {
                    continue;
                }
                // after a due instant passed, ask for the next one (a world may announce only the earliest of
                // several); otherwise asking is the fallback (a notice missed, a lease that lapsed), at most
                // once per poll interval, not each time a turn ends
                long now = System.nanoTime();
                if (timerWoke || now - lastNextDue >= settings.pollInterval().toNanos()) {
                    timerWoke = false;
                    lastNextDue = now;
                    try {
                        Set<String> open = shares.any() ? shares.open(inFlight()) : settings.queues();
                        if (!open.isEmpty()) {
                            tasks.nextDue(open).ifPresent(this::scheduleWake);
                        }
                    } catch (RuntimeException e) {
                        log.debug("nextDue failed: {}", e.toString());
                    }
                }
            }
            idle(settings.pollInterval());
        }
    }

    /**
     * Leases up to {@code want} turns: of every queue served in one request, or, when some queue limits how many of its
     * turns one worker executes, of the others together and of each such queue up to the room it has left.
     */
    private LeasedRuns leaseTurns(int want) {
        List<WorkerShares.Ask> plan =
                shares.any() ? shares.plan(want, inFlight()) : List.of(new WorkerShares.Ask(settings.queues(), want));
        if (plan.size() == 1) {
            return engine.world
                    .workerAccess()
                    .leaseAndLoad(
                            settings.workerId(),
                            plan.getFirst().queues(),
                            plan.getFirst().max(),
                            settings.lease(),
                            lookahead);
        }
        List<Lease> leases = new ArrayList<>();
        Map<String, LoadedRun> runs = new HashMap<>();
        for (WorkerShares.Ask ask : plan) {
            int left = want - leases.size();
            if (left <= 0) {
                break;
            }
            LeasedRuns got = engine.world
                    .workerAccess()
                    .leaseAndLoad(
                            settings.workerId(), ask.queues(), Math.min(left, ask.max()), settings.lease(), lookahead);
            leases.addAll(got.leases());
            runs.putAll(got.runs());
        }
        return new LeasedRuns(leases, runs);
    }

    /**
     * Whether a turn just leased would take its queue past the turns one worker may execute of it: the lease was planned
     * before this worker knew the queue's limit (defined while the lease was on its way), so it asked for the queue's
     * turns with the others. Such a turn is handed back at once. A later turn of a run that runs here is not: it waits
     * for its run's own slot.
     */
    private boolean pastItsQueueLimit(Lease lease) {
        synchronized (slots) {
            return shares.any() && !active.containsKey(lease.runId()) && !shares.mayBegin(lease.queue(), inFlight());
        }
    }

    /** The turns of each queue this worker holds now. */
    private Map<String, Integer> inFlight() {
        Map<String, Integer> counts = new HashMap<>();
        for (Slot slot : active.values()) {
            if (slot.queue != null) {
                counts.merge(slot.queue, 1, Integer::sum);
            }
        }
        return counts;
    }

    /** How many turns to lease now (runs started here may have taken slots since the loop looked), counted as taken. */
    private int beginLeasing() {
        synchronized (slots) {
            return slots.beginLeasing(held());
        }
    }

    private void doneLeasing(int asked, int got) {
        synchronized (slots) {
            slots.leased(asked, got);
        }
    }

    /**
     * Creates a run started in this process. When this worker serves the run's queue and workflow, has a free slot
     * that no waiting turn is owed ({@link Slots#mayStartHere}), and the run is due now, the world is asked to lease its first turn here in the same write
     * ({@link io.worldflow.spi.WorkerAccess#createLeased}); given the lease, the turn starts at once from what this process
     * already holds, without a wake-up, a lease and a read. Otherwise the run is created and its turn waits to be
     * leased like any other.
     */
    public CreateResult create(NewRun run) {
        Slot slot = reserve(run);
        if (slot == null) {
            return engine.world.eventLog().create(run);
        }
        CreateResult created;
        try {
            created = engine.world.workerAccess().createLeased(run, settings.workerId(), settings.lease());
        } catch (RuntimeException e) {
            finished(run.runId(), slot);
            throw e;
        }
        if (created.lease() == null) {
            finished(run.runId(), slot);
        } else if (stopping) {
            handBack(created.lease());
            finished(run.runId(), slot);
        } else {
            load(slot, created.lease(), new LoadedRun(created.run(), List.of(run.startedEvent())), null);
        }
        return created;
    }

    /**
     * Holds a slot for each of {@code runs} (children, successors) that appends of runs in memory here are about to
     * create and that may begin here as a run started in this process may ({@link #create}); null when none may. The
     * appends then go to the world through {@link Reserved#append}, and {@link Reserved#begin} ends the reservation.
     */
    Reserved reserveStarts(List<NewRun> runs) {
        Reserved reserved = new Reserved();
        for (NewRun run : runs) {
            Slot slot = reserve(run);
            if (slot != null) {
                reserved.slots.put(run.runId(), slot);
            }
        }
        return reserved.slots.isEmpty() ? null : reserved;
    }

    /** Slots held for runs that appends of this process are about to create, to begin here ({@link #reserveStarts}). */
    final class Reserved {
        private final Map<String, Slot> slots = new LinkedHashMap<>();
        /** When the runs admitted ahead of their starts begin. */
        private Map<String, Instant> starts = Map.of();

        private LeasedRuns granted = new LeasedRuns(List.of(), Map.of());

        /** The appends, the reserved runs they create leased here in the same write. */
        List<AppendResult> append(List<Append> appends) {
            LeasedAppends out = engine.world
                    .workerAccess()
                    .appendLeasingStarts(appends, slots.keySet(), settings.workerId(), settings.lease());
            granted = out.started();
            return out.results();
        }

        /** The moves, the reserved runs' turns leased here in the same write. */
        void move(List<String> runIds, String from, String to, Instant at) {
            granted = engine.world
                    .workerAccess()
                    .moveLeasing(runIds, from, to, at, slots.keySet(), settings.workerId(), settings.lease());
        }

        /**
         * The write of the reserved runs is over, committed or not: those leased here begin, from what this process
         * holds or else read in one go, without a wake-up and a lease (off the caller's thread); the others give their
         * slots back and are leased like any other turn.
         */
        void begin() {
            Map<String, Lease> leases = new HashMap<>();
            granted.leases().forEach(l -> leases.put(l.runId(), l));
            List<Fresh> fresh = new ArrayList<>();
            slots.forEach((runId, slot) -> {
                Lease lease = leases.get(runId);
                if (lease == null) {
                    finished(runId, slot);
                } else if (stopping) {
                    handBack(lease);
                    finished(runId, slot);
                } else {
                    fresh.add(new Fresh(slot, lease, starts.get(runId)));
                }
            });
            if (!fresh.isEmpty()) {
                Map<String, LoadedRun> runs = granted.runs();
                Thread.ofVirtual().name("wf-start").start(() -> startFresh(fresh, runs));
            }
        }
    }

    /** A slot for a run about to be created and leased here, or null when it should not be. */
    private Slot reserve(NewRun run) {
        if (run.waits()
                || run.availableAt().isAfter(engine.clock.instant())
                || engine.registry.find(run.workflow()).isEmpty()) {
            return null;
        }
        return reserve(run.runId(), run.queue());
    }

    /** A slot for a turn of {@code queue} that a write of this process is about to lease here, or null. */
    private Slot reserve(String runId, String queue) {
        if (stopping || !settings.queues().contains(queue)) {
            return null;
        }
        synchronized (slots) {
            if (!slots.mayStartHere(held())) {
                return null;
            }
            if (shares.any() && !shares.mayBegin(queue, inFlight())) {
                return null;
            }
            Slot slot = new Slot(queue);
            return active.putIfAbsent(runId, slot) == null ? slot : null;
        }
    }

    /**
     * Moves the turns of runs that this process's admission let into queue {@code to} ({@link QueueRunner#admit}), and
     * has the world lease here in the same write as many of them as this worker has free slots for
     * ({@link io.worldflow.spi.WorkerAccess#moveLeasing}): those begin here at once, without a notice that wakes every
     * worker to race for them; the others are announced and leased like any other turn.
     */
    void moveAdmitted(List<String> runIds, String from, String to, Instant at, Map<String, Instant> later) {
        Reserved reserved = new Reserved();
        reserved.starts = later;
        if (!at.isAfter(engine.clock.instant())) {
            for (String runId : runIds) {
                Slot slot = reserve(runId, to);
                if (slot != null) {
                    reserved.slots.put(runId, slot);
                }
            }
        }
        List<String> moveNow = new ArrayList<>(runIds.size());
        Map<Instant, List<String>> moveLater = new TreeMap<>();
        for (String runId : runIds) {
            Instant start = later.get(runId);
            if (start == null || reserved.slots.containsKey(runId)) {
                moveNow.add(runId);
            } else {
                moveLater.computeIfAbsent(start, s -> new ArrayList<>()).add(runId);
            }
        }
        // a run admitted ahead of its start that found no slot here is moved when it may start: moved now, the first
        // worker to lease it would begin it at once (if this process ends first, a later round or the audit moves it)
        moveLater.forEach((start, ids) -> engine.scheduler.schedule(
                start, () -> Thread.ofVirtual().name("wf-admit").start(() -> moveAtStart(ids, from, to))));
        if (reserved.slots.isEmpty()) {
            if (!moveNow.isEmpty()) {
                tasks.move(moveNow, from, to, at);
            }
            return;
        }
        try {
            reserved.move(moveNow, from, to, at);
        } finally {
            reserved.begin();
        }
    }

    private void moveAtStart(List<String> runIds, String from, String to) {
        try {
            tasks.move(runIds, from, to, engine.clock.instant());
        } catch (RuntimeException e) {
            log.warn(
                    "moving {} admitted runs to queue {} failed ({}); the queue's audit moves them",
                    runIds.size(),
                    to,
                    e.toString());
        }
    }

    /**
     * How many runs admitted ahead of their starts this worker could hold now: its slots free for runs started here,
     * where the world leases the turns it moves (elsewhere another worker could begin them before their starts).
     */
    private int roomAhead() {
        if (stopping || !engine.world.workerAccess().leasesMoves()) {
            return 0;
        }
        synchronized (slots) {
            return slots.roomHere(held());
        }
    }

    /**
     * A nearly full worker waits a moment for more of its turns to end before leasing, so that it leases
     * (and reads) turns in batches rather than one by one as each slot frees.
     *
     * @return the free slots then
     */
    private int gather() {
        long deadline = System.nanoTime() + GATHER.toNanos();
        int free = settings.concurrency() - held();
        while (!stopping && free < refill) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            idle(Duration.ofNanos(left));
            free = settings.concurrency() - held();
        }
        return free;
    }

    private void idle(Duration max) {
        lock.lock();
        try {
            if (!signaled && !stopping) {
                wake.await(max.toNanos(), TimeUnit.NANOSECONDS);
            }
            signaled = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        } finally {
            lock.unlock();
        }
    }

    /** A turn that starts here from the run's log (the run is not in memory). */
    /** A turn leased here, and when it may begin if that is later than its lease (null: at once). */
    private record Fresh(Slot slot, Lease lease, Instant notBefore) {}

    /**
     * Starts the fresh turns of one lease batch, off the leasing thread so that the next batch is leased
     * meanwhile. The runs the world did not read along with the leases are read here in one go; a run that
     * read left out is read by itself.
     */
    private void startFresh(List<Fresh> fresh, Map<String, LoadedRun> leasedWith) {
        Map<String, LoadedRun> loaded = leasedWith;
        List<String> missing = fresh.stream()
                .map(f -> f.lease().runId())
                .filter(id -> !leasedWith.containsKey(id))
                .toList();
        if (!missing.isEmpty()) {
            try {
                loaded = new HashMap<>(leasedWith);
                loaded.putAll(engine.world.workerAccess().load(missing));
            } catch (RuntimeException e) {
                log.debug(
                        "loading {} leased runs at once failed ({}); each is read by itself",
                        missing.size(),
                        e.toString());
            }
        }
        for (Fresh f : fresh) {
            load(f.slot(), f.lease(), loaded.get(f.lease().runId()), f.notBefore());
        }
    }

    /**
     * Takes a leased turn: returns the slot to start it in when it starts afresh, or null when it was chained
     * behind a turn of the same run that is still unwinding here.
     */
    private Slot begin(Lease lease) {
        Slot fresh = new Slot(lease.queue());
        while (true) {
            Slot existing = active.putIfAbsent(lease.runId(), fresh);
            if (existing == null) {
                return fresh;
            }
            synchronized (existing) {
                if (!existing.closed) {
                    RunExecution old = existing.exec;
                    if (old == null || old.endedCleanly()) {
                        // the previous turn ended and only unwinds (or still loads): this one starts after it
                        if (existing.next != null) {
                            tasks.release(existing.next);
                        }
                        existing.next = lease;
                        return null;
                    }
                    if (old.active() && old.leaseHeldInRealTime(settings.lease())) {
                        // its lease lapsed by the clock alone, which jumped (a test moving time in the middle of a
                        // step): the turn is not stuck, and goes on under the new lease (one that stopped, a
                        // termination's, gave its lease back for the next turn, which starts afresh)
                        old.leaseExtended(lease);
                        return null;
                    }
                    // our lease on a turn that still runs here lapsed (a stuck step, a long pause) and the
                    // world handed the run out again: abandon the old turn (its writes are fenced off) and
                    // resume the run from its log on the new lease
                    log.warn(
                            "run {}: lease lapsed during a turn; abandoning it and resuming from the log",
                            lease.runId());
                    engine.telemetry.leaseRenewal(existing.queue, false);
                    old.abort("lease lapsed");
                    existing.closed = true;
                    if (!active.replace(lease.runId(), existing, fresh)) {
                        continue;
                    }
                    return fresh;
                }
            }
            active.remove(lease.runId(), existing);
        }
    }

    /**
     * Starts a turn; {@code preloaded} is the run as read with its lease, or null to read it now; {@code notBefore} is
     * when the turn may begin if later than the run's own start (a run admitted ahead of its start), or null.
     */
    private void load(Slot slot, Lease lease, LoadedRun preloaded, Instant notBefore) {
        String runId = lease.runId();
        try {
            Optional<RunInfo> found = preloaded != null
                    ? Optional.of(preloaded.info())
                    : engine.world.runQueries().get(runId);
            if (found.isEmpty() || found.get().isTerminal()) {
                tasks.complete(lease, null);
                finished(runId, slot);
                return;
            }
            RunInfo info = found.get();
            Optional<Workflow<Object, Object>> workflow = engine.registry.find(info.workflow());
            if (workflow.isEmpty()) {
                engine.world
                        .eventLog()
                        .hold(
                                runId,
                                ErrorInfo.of(
                                        io.worldflow.UnknownWorkflowException.class.getName(),
                                        "workflow '" + info.workflow() + "' is not registered in worker "
                                                + settings.workerId()));
                tasks.complete(lease, engine.clock.instant().plus(engine.holdRetry));
                finished(runId, slot);
                return;
            }
            List<Event> events = preloaded != null
                    ? preloaded.events()
                    : engine.world.eventLog().read(runId, 0);
            RunExecution exec = new RunExecution(engine, lease, info, workflow.get(), History.of(events));
            slot.exec = exec;
            exec.done().whenComplete((outcome, error) -> {
                if (outcome == RunExecution.Outcome.ABORTED) {
                    handBack(exec.lease());
                }
                finished(runId, slot);
            });
            Instant begins = info.availableAt();
            if (notBefore != null && (begins == null || notBefore.isAfter(begins))) {
                begins = notBefore;
            }
            if (!exec.terminated() && begins != null && begins.isAfter(engine.clock.instant())) {
                // a delayed start claimed ahead of its time: the workflow code starts no earlier than asked (a
                // terminated run, whose code never starts, ends at once)
                engine.scheduler.schedule(begins, exec::start);
            } else {
                exec.start();
            }
        } catch (RuntimeException e) {
            log.warn("run {}: could not start its turn ({}); handing it back", runId, e.toString());
            try {
                tasks.release(lease);
            } catch (RuntimeException ignored) {
                // the lease will expire
            }
            finished(runId, slot);
        }
    }

    /** An aborted turn's lease is handed back so the run is tried again at once (a lapsed lease does nothing). */
    private void handBack(Lease lease) {
        try {
            tasks.release(lease);
        } catch (RuntimeException e) {
            log.debug("run {}: hand-back failed ({}); its lease will expire", lease.runId(), e.toString());
        }
    }

    private void finished(String runId, Slot slot) {
        Lease next;
        synchronized (slot) {
            next = slot.next;
            slot.next = null;
            slot.exec = null;
            slot.closed = next == null;
        }
        if (next == null) {
            active.remove(runId, slot);
            signal();
        } else if (stopping) {
            tasks.release(next);
            synchronized (slot) {
                slot.closed = true;
            }
            active.remove(runId, slot);
        } else {
            Thread.ofVirtual().name("wf-load-" + runId).start(() -> load(slot, next, null, null));
        }
    }

    private void heartbeat() {
        for (Slot slot : active.values()) {
            RunExecution exec = slot.exec;
            if (exec == null) {
                continue;
            }
            try {
                Optional<Lease> extended = tasks.extend(exec.lease(), settings.lease());
                if (extended.isPresent()) {
                    exec.leaseExtended(extended.get());
                    engine.telemetry.leaseRenewal(slot.queue, true);
                } else if (exec.endedCleanly()) {
                    log.debug("run {}: its turn ended while its lease was being extended", exec.runId);
                } else {
                    log.warn("run {}: lease lost; stopping its turn", exec.runId);
                    engine.telemetry.leaseRenewal(slot.queue, false);
                    exec.abort("lease lost");
                }
            } catch (RuntimeException e) {
                log.warn("run {}: heartbeat failed ({})", exec.runId, e.toString());
            }
        }
    }

    /** Stops claiming, lets in-flight turns finish within the grace period, then hands the rest back. */
    @Override
    public void close() {
        if (stopping) {
            return;
        }
        stopping = true;
        signal();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        subscription.close();
        long deadline = System.nanoTime() + settings.shutdownGrace().toNanos();
        while (!active.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Slot slot : active.values()) {
            Lease next;
            synchronized (slot) {
                next = slot.next;
                slot.next = null;
            }
            if (next != null) {
                tasks.release(next);
            }
            RunExecution exec = slot.exec;
            if (exec == null) {
                continue;
            }
            log.info("run {}: handing back its turn at shutdown", exec.runId);
            exec.abort("shutdown");
            exec.interrupt();
            try {
                exec.done().get(2, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // handed back regardless
            }
            try {
                tasks.release(exec.lease());
            } catch (RuntimeException e) {
                log.debug("release at shutdown failed: {}", e.toString());
            }
        }
        heartbeat.shutdownNow();
        log.info("worker {} stopped", settings.workerId());
    }
}
