package io.worldflow.runtime.internal;

import io.worldflow.spi.CreateResult;
import io.worldflow.spi.Lease;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private final WorkerTurns turns;
    private final LeasingWrites writes;

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
        this.turns = new WorkerTurns(engine, settings, MAX_LEASE_BATCH, this::signal);
        this.writes = new LeasingWrites(engine, settings, turns);
        Duration halfSticky = engine.stickyWait.dividedBy(2);
        this.lookahead = halfSticky.compareTo(MAX_LOOKAHEAD) < 0 ? halfSticky : MAX_LOOKAHEAD;
        this.wakes = new Wakes(engine.scheduler, () -> {
            timerWoke = true;
            signal();
        });
        this.tasks = engine.world.taskQueue();
        engine.worker = this;
        engine.committer.startHere(this);
        engine.queues.movedBy(writes::moveAdmitted, turns::roomAhead);
        engine.telemetry.activeTurns(turns::size);
        engine.telemetry.serving(engine.registry.names(), settings.queues());
        this.subscription = tasks.subscribe(this::dueAt);
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "worldflow-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long beat = Math.max(50, settings.lease().toMillis() / 3);
        heartbeat.scheduleWithFixedDelay(turns::heartbeat, beat, beat, TimeUnit.MILLISECONDS);
        this.thread = Thread.ofPlatform().name("worldflow-worker").daemon().start(this::loop);
        log.info(
                "worker {} started: concurrency {}, queues {}, lease {}",
                settings.workerId(),
                settings.concurrency(),
                settings.queues(),
                settings.lease());
    }

    public int activeRuns() {
        return turns.size();
    }

    /** Whether this worker leases turns of queue {@code queue}. */
    boolean serves(String queue) {
        return settings.queues().contains(queue);
    }

    /** A run in memory here lends its slot to its children while it waits for them ({@link WorkerTurns#lend}). */
    void lend() {
        turns.lend();
    }

    /** The run that {@link #lend lent} its slot goes on. */
    void reclaim() {
        turns.reclaim();
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
        RunExecution e = turns.inMemory(runId);
        if (e != null && e.threads.hasSignalWaiters()) {
            e.threads.poke();
        }
    }

    /**
     * The run's cancellation (or with {@code terminate}, its termination) was requested through this process: a turn
     * of it in memory notices now, rather than at its next append. Canceled, it wakes its waits and interrupts its
     * running steps; terminated, it stops without writing anything more and hands its lease back, so that the next
     * turn ends the run without its code. A run in memory elsewhere notices it there at its next append or turn.
     */
    public void cancelRequested(String runId, boolean terminate) {
        RunExecution e = turns.inMemory(runId);
        if (e != null && terminate) {
            // a turn that began with the termination already asked for is the one ending the run (the request made
            // the run due, and this worker may have taken it before the caller got here): stopping it would only
            // hand the end to yet another turn
            if (!e.terminated()) {
                e.terminateRequested();
            }
        } else if (e != null) {
            e.cancelRequested();
        }
    }

    /** A signal may have arrived for a run in memory that waits for one: let it look again. */
    private void pokeSignalWaiters() {
        pokeSignalWaiters = false;
        List<RunExecution> waiting = turns.signalWaiters();
        if (!waiting.isEmpty()) {
            Thread.startVirtualThread(() -> waiting.forEach(e -> e.threads.poke()));
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
                .start(() ->
                        HeldRuns.retry(engine.world, engine.registry.names(), engine.clock.instant(), () -> stopping));
        long failures = 0;
        while (!stopping) {
            if (pokeSignalWaiters) {
                pokeSignalWaiters();
            }
            int free = settings.concurrency() - turns.held();
            if (free > 0 && free < refill) {
                free = gather();
            }
            int want = free > 0 ? turns.beginLeasing() : 0;
            if (want > 0) {
                LeasedRuns leased;
                try {
                    leased = leaseTurns(want);
                    failures = 0;
                } catch (RuntimeException e) {
                    turns.doneLeasing(want, -1);
                    failures++;
                    long backoff = Math.min(5_000, 50L << Math.min(failures, 7));
                    log.warn("leasing work failed ({}); retrying in {} ms", e.toString(), backoff);
                    idle(Duration.ofMillis(backoff));
                    continue;
                }
                List<Lease> leases = leased.leases();
                List<WorkerTurns.Fresh> fresh = new ArrayList<>(leases.size());
                for (Lease l : leases) {
                    if (turns.pastItsQueueLimit(l)) {
                        tasks.release(l);
                        continue;
                    }
                    WorkerTurns.Slot slot = turns.begin(l);
                    if (slot != null) {
                        fresh.add(new WorkerTurns.Fresh(slot, l, null));
                    }
                }
                turns.doneLeasing(want, leases.size());
                turns.start(fresh, leased.runs());
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
                        Set<String> open = turns.shared() ? turns.open() : settings.queues();
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
                turns.shared() ? turns.plan(want) : List.of(new WorkerShares.Ask(settings.queues(), want));
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
     * Creates a run started in this process, its first turn leased here in the same write when it may begin here
     * ({@link LeasingWrites#create}).
     */
    public CreateResult create(NewRun run) {
        return writes.create(run);
    }

    /**
     * Holds a slot for each of {@code runs} that appends of runs in memory here are about to create, to begin here
     * ({@link LeasingWrites#reserveStarts}); null when none may.
     */
    LeasingWrites.Reserved reserveStarts(List<NewRun> runs) {
        return writes.reserveStarts(runs);
    }

    /**
     * A nearly full worker waits a moment for more of its turns to end before leasing, so that it leases
     * (and reads) turns in batches rather than one by one as each slot frees.
     *
     * @return the free slots then
     */
    private int gather() {
        long deadline = System.nanoTime() + GATHER.toNanos();
        int free = settings.concurrency() - turns.held();
        while (!stopping && free < refill) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            idle(Duration.ofNanos(left));
            free = settings.concurrency() - turns.held();
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
            turns.stop();
        } finally {
            lock.unlock();
        }
    }

    /** Stops claiming, lets in-flight turns finish within the grace period, then hands the rest back. */
    @Override
    public void close() {
        if (stopping) {
            return;
        }
        stopping = true;
        turns.stop();
        signal();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        subscription.close();
        turns.drain(settings.shutdownGrace());
        heartbeat.shutdownNow();
        log.info("worker {} stopped", settings.workerId());
    }
}
