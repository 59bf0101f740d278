package io.worldflow.runtime.internal;

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

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of this process that lease the turns they make due to its worker in the same write: a run started here
 * ({@link #create}), the children and successors an append creates ({@link #reserveStarts}), the runs its queue
 * admission moves ({@link #moveAdmitted}). Each reserves a slot before its write, so that a turn leased here always
 * has one, and begins what it was granted without a notice, a lease and a read.
 */
final class LeasingWrites {

    private static final Logger log = LoggerFactory.getLogger(LeasingWrites.class);

    private final Engine engine;
    private final WorkerLoop.Settings settings;
    private final TaskQueue tasks;
    private final WorkerTurns turns;

    LeasingWrites(Engine engine, WorkerLoop.Settings settings, WorkerTurns turns) {
        this.engine = engine;
        this.settings = settings;
        this.tasks = engine.world.taskQueue();
        this.turns = turns;
    }

    /**
     * Creates a run started in this process. When this worker serves the run's queue and workflow, has a free slot
     * that no waiting turn is owed ({@link Slots#mayStartHere}), and the run is due now, the world is asked to lease its
     * first turn here in the same write ({@link io.worldflow.spi.WorkerAccess#createLeased}); given the lease, the turn
     * starts at once from what this process already holds, without a wake-up, a lease and a read. Otherwise the run is
     * created and its turn waits to be leased like any other.
     */
    CreateResult create(NewRun run) {
        WorkerTurns.Slot slot = turns.reserve(run);
        if (slot == null) {
            return engine.world.eventLog().create(run);
        }
        CreateResult created;
        try {
            created = engine.world.workerAccess().createLeased(run, settings.workerId(), settings.lease());
        } catch (RuntimeException e) {
            turns.finished(run.runId(), slot);
            throw e;
        }
        if (created.lease() == null) {
            turns.finished(run.runId(), slot);
        } else if (turns.stopping()) {
            turns.handBack(created.lease());
            turns.finished(run.runId(), slot);
        } else {
            turns.load(slot, created.lease(), new LoadedRun(created.run(), List.of(run.startedEvent())), null);
        }
        return created;
    }

    /**
     * Holds a slot for each of {@code runs} (children, successors) that appends of runs in memory here are about to
     * create and that may begin here as a run started in this process may ({@link #create}); null when none may. The
     * appends then go to the world through {@link Reserved#append}, and {@link Reserved#begin} ends the reservation.
     */
    Reserved reserveStarts(List<NewRun> runs) {
        Reserved reserved = new Reserved(Map.of());
        for (NewRun run : runs) {
            WorkerTurns.Slot slot = turns.reserve(run);
            if (slot != null) {
                reserved.slots.put(run.runId(), slot);
            }
        }
        return reserved.slots.isEmpty() ? null : reserved;
    }

    /** Slots held for runs that a write of this process is about to lease here, and what the write granted. */
    final class Reserved {
        private final Map<String, WorkerTurns.Slot> slots = new LinkedHashMap<>();
        /** When the runs admitted ahead of their starts begin. */
        private final Map<String, Instant> starts;

        private LeasedRuns granted = new LeasedRuns(List.of(), Map.of());

        private Reserved(Map<String, Instant> starts) {
            this.starts = starts;
        }

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
            List<WorkerTurns.Fresh> fresh = new ArrayList<>();
            slots.forEach((runId, slot) -> {
                Lease lease = leases.get(runId);
                if (lease == null) {
                    turns.finished(runId, slot);
                } else if (turns.stopping()) {
                    turns.handBack(lease);
                    turns.finished(runId, slot);
                } else {
                    fresh.add(new WorkerTurns.Fresh(slot, lease, starts.get(runId)));
                }
            });
            turns.start(fresh, granted.runs());
        }
    }

    /**
     * Moves the turns of runs that this process's admission let into queue {@code to} ({@link QueueRunner#admit}), and
     * has the world lease here in the same write as many of them as this worker has free slots for
     * ({@link io.worldflow.spi.WorkerAccess#moveLeasing}): those begin here at their starts ({@code later}, for runs
     * admitted ahead of them) without a notice that wakes every worker to race for them; the others are announced and
     * leased like any other turn.
     */
    void moveAdmitted(List<String> runIds, String from, String to, Instant at, Map<String, Instant> later) {
        Reserved reserved = new Reserved(later);
        if (!at.isAfter(engine.clock.instant())) {
            for (String runId : runIds) {
                WorkerTurns.Slot slot = turns.reserve(runId, to);
                if (slot != null) {
                    reserved.slots.put(runId, slot);
                }
            }
        }
        List<String> moveNow = new ArrayList<>(runIds.size());
        Map<Instant, List<String>> moveLater = new HashMap<>();
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
}
