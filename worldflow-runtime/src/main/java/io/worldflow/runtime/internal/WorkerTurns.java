package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.RunInfo;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TaskQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The turns a worker executes, one slot each: taken when a turn is leased (or reserved for a write that leases it
 * here), kept alive by the heartbeat, given back when the turn ends. What the slots allow is counted here for the
 * worker's loop, which leases into them, and for the writes of this process that lease runs here
 * ({@link LeasingWrites}).
 */
final class WorkerTurns {

    private static final Logger log = LoggerFactory.getLogger(WorkerTurns.class);

    /**
     * A run this worker is executing; {@code exec} is null while its history loads. A turn leased again
     * while the previous one still unwinds waits in {@code next} (guarded by the slot).
     */
    static final class Slot {
        /** The queue of the turn it holds: counted against the queue's limit per worker. */
        final String queue;

        volatile RunExecution exec;
        Lease next;
        boolean closed;

        Slot(String queue) {
            this.queue = queue;
        }
    }

    /** A turn leased here, and when it may begin if that is later than its lease (null: at once). */
    record Fresh(Slot slot, Lease lease, Instant notBefore) {}

    private final Engine engine;
    private final WorkerLoop.Settings settings;
    private final TaskQueue tasks;
    /** Wakes the worker's loop: a slot came free. */
    private final Runnable freed;

    private final Map<String, Slot> active = new ConcurrentHashMap<>();
    /** Slots lent by runs that wait in memory for their children ({@link #lend}). */
    private final AtomicInteger lent = new AtomicInteger();
    /** What the loop is leasing for and whether a run started here may start at once; its monitor guards both. */
    private final Slots slots;
    /** The queues that limit how many of their turns this worker executes at once. */
    private final WorkerShares shares;

    private volatile boolean stopping;

    WorkerTurns(Engine engine, WorkerLoop.Settings settings, int maxBatch, Runnable freed) {
        this.engine = engine;
        this.settings = settings;
        this.tasks = engine.world.taskQueue();
        this.freed = freed;
        this.slots = new Slots(settings.concurrency(), maxBatch);
        this.shares = new WorkerShares(engine.queues, settings.queues());
    }

    int size() {
        return active.size();
    }

    boolean stopping() {
        return stopping;
    }

    /** No turn begins here any more: leases that come now go back. */
    void stop() {
        stopping = true;
    }

    /** The slots the runs held here take: all of them but those lent to children ({@link #lend}). */
    int held() {
        return active.size() - lent.get();
    }

    /**
     * A run in memory whose every thread waits for its children lends them its slot until one of its threads goes
     * on: a worker full of parents would otherwise keep their children waiting until the parents leave memory. A
     * parent that wakes runs again at once, so for a moment one more run than the concurrency may execute.
     */
    void lend() {
        lent.incrementAndGet();
        freed.run();
    }

    /** The run that {@link #lend lent} its slot goes on. */
    void reclaim() {
        lent.decrementAndGet();
    }

    /** The run's turn in memory here, or null. */
    RunExecution inMemory(String runId) {
        Slot slot = active.get(runId);
        return slot == null ? null : slot.exec;
    }

    /** The turns in memory here whose code waits for a signal. */
    List<RunExecution> signalWaiters() {
        List<RunExecution> waiting = new ArrayList<>();
        for (Slot slot : active.values()) {
            RunExecution e = slot.exec;
            if (e != null && e.threads.hasSignalWaiters()) {
                waiting.add(e);
            }
        }
        return waiting;
    }

    /** Whether some queue limits how many of its turns this worker executes at once. */
    boolean shared() {
        return shares.any();
    }

    /** How the loop's next lease of {@code want} turns is split between queues with a limit per worker and the rest. */
    List<WorkerShares.Ask> plan(int want) {
        return shares.plan(want, inFlight());
    }

    /** The queues served here whose turns this worker may still take more of. */
    Set<String> open() {
        return shares.open(inFlight());
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

    /**
     * Whether a turn just leased would take its queue past the turns one worker may execute of it: the lease was planned
     * before this worker knew the queue's limit (defined while the lease was on its way), so it asked for the queue's
     * turns with the others. Such a turn is handed back at once. A later turn of a run that runs here is not: it waits
     * for its run's own slot.
     */
    boolean pastItsQueueLimit(Lease lease) {
        synchronized (slots) {
            return shares.any() && !active.containsKey(lease.runId()) && !shares.mayBegin(lease.queue(), inFlight());
        }
    }

    /** How many turns to lease now (runs started here may have taken slots since the loop looked), counted as taken. */
    int beginLeasing() {
        synchronized (slots) {
            return slots.beginLeasing(held());
        }
    }

    void doneLeasing(int asked, int got) {
        synchronized (slots) {
            slots.leased(asked, got);
        }
    }

    /**
     * How many runs admitted ahead of their starts this worker could hold now: its slots free for runs started here,
     * where the world leases the turns it moves (elsewhere another worker could begin them before their starts).
     */
    int roomAhead() {
        if (stopping || !engine.world.workerAccess().leasesMoves()) {
            return 0;
        }
        synchronized (slots) {
            return slots.roomHere(held());
        }
    }

    /** A slot for a run about to be created and leased here, or null when it should not be. */
    Slot reserve(NewRun run) {
        if (run.waits()
                || run.availableAt().isAfter(engine.clock.instant())
                || engine.registry.find(run.workflow()).isEmpty()) {
            return null;
        }
        return reserve(run.runId(), run.queue());
    }

    /** A slot for a turn of {@code queue} that a write of this process is about to lease here, or null. */
    Slot reserve(String runId, String queue) {
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
     * Takes a leased turn: returns the slot to start it in when it starts afresh, or null when it was chained
     * behind a turn of the same run that is still unwinding here.
     */
    Slot begin(Lease lease) {
        Slot fresh = new Slot(lease.queue());
        while (true) {
            Slot existing = active.putIfAbsent(lease.runId(), fresh);
            if (existing == null) {
                return fresh;
            }
            synchronized (existing) {
                if (!existing.closed) {
                    RunExecution old = existing.exec;
                    if (old == null || old.threads.endedCleanly()) {
                        // the previous turn ended and only unwinds (or still loads): this one starts after it
                        if (existing.next != null) {
                            tasks.release(existing.next);
                        }
                        existing.next = lease;
                        return null;
                    }
                    if (old.threads.active() && old.leaseHeldInRealTime(settings.lease())) {
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
                    old.threads.abort("lease lapsed");
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
     * Starts the fresh turns of one lease batch off the caller's thread, so that a leasing loop leases the next batch
     * meanwhile. The runs the world did not read along with the leases are read there in one go; a run that read left
     * out is read by itself.
     */
    void start(List<Fresh> fresh, Map<String, LoadedRun> leasedWith) {
        if (!fresh.isEmpty()) {
            Thread.ofVirtual().name("wf-start").start(() -> startAll(fresh, leasedWith));
        }
    }

    private void startAll(List<Fresh> fresh, Map<String, LoadedRun> leasedWith) {
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
     * Starts a turn; {@code preloaded} is the run as read with its lease, or null to read it now; {@code notBefore} is
     * when the turn may begin if later than the run's own start (a run admitted ahead of its start), or null.
     */
    void load(Slot slot, Lease lease, LoadedRun preloaded, Instant notBefore) {
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
            if (notBefore == null && lease.deliveries() > 1 && events.size() == 1) {
                // a first turn delivered again: under a rate limit, a start it missed is not made up beside others'
                notBefore = engine.queues.redeliveredStart(info.queue(), runId);
            }
            RunExecution exec = new RunExecution(engine, lease, info, workflow.get(), History.of(events));
            slot.exec = exec;
            exec.threads.done().whenComplete((outcome, error) -> {
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
    void handBack(Lease lease) {
        try {
            tasks.release(lease);
        } catch (RuntimeException e) {
            log.debug("run {}: hand-back failed ({}); its lease will expire", lease.runId(), e.toString());
        }
    }

    /** The turn in {@code slot} is over: the slot is free, or the run's next turn, leased meanwhile, starts in it. */
    void finished(String runId, Slot slot) {
        Lease next;
        synchronized (slot) {
            next = slot.next;
            slot.next = null;
            slot.exec = null;
            slot.closed = next == null;
        }
        if (next == null) {
            active.remove(runId, slot);
            freed.run();
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

    /** Extends the lease of every turn in memory here; a turn whose lease is lost stops. */
    void heartbeat() {
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
                } else if (exec.threads.endedCleanly()) {
                    log.debug("run {}: its turn ended while its lease was being extended", exec.runId);
                } else {
                    log.warn("run {}: lease lost; stopping its turn", exec.runId);
                    engine.telemetry.leaseRenewal(slot.queue, false);
                    exec.threads.abort("lease lost");
                }
            } catch (RuntimeException e) {
                log.warn("run {}: heartbeat failed ({})", exec.runId, e.toString());
            }
        }
    }

    /** Lets the turns in memory finish within {@code grace}, then stops the rest and hands their leases back. */
    void drain(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
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
            exec.threads.abort("shutdown");
            exec.threads.interrupt();
            try {
                exec.threads.done().get(2, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // handed back regardless
            }
            try {
                tasks.release(exec.lease());
            } catch (RuntimeException e) {
                log.debug("release at shutdown failed: {}", e.toString());
            }
        }
    }
}
