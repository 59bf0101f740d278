package io.worldflow.world.jdbc;

import io.worldflow.spi.Append;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PlainWorkerAccess;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A SQL world's facets over one database, each made once: its event log and queue of turns, the shared signals (which
 * the event log's appends send through as well),
 * and a worker's requests answered from one read of many runs ({@link JdbcEventLog#load}) and from creation with
 * the first turn leased. A world adds its name, whether it leases and reads runs in one trip, and how it closes.
 */
public abstract class SqlWorld implements World {

    private final JdbcEventLog eventLog;
    private final JdbcTaskQueue taskQueue;
    private final Signals signals;
    private final RunQueries runQueries;
    private final WorkerAccess workerAccess;
    private final ScheduleStore schedules;
    private final QueueStore queues;

    /** @param appendsInProcess whether the database runs in this process ({@link WorkerAccess#appendsInProcess}) */
    protected SqlWorld(
            JdbcEventLog eventLog, JdbcTaskQueue taskQueue, RunQueries runQueries, boolean appendsInProcess) {
        this.eventLog = eventLog;
        this.taskQueue = taskQueue;
        this.signals = eventLog.signals();
        this.runQueries = runQueries;
        this.workerAccess = new Access(appendsInProcess);
        this.schedules = new JdbcSchedules(eventLog.db);
        this.queues = new JdbcQueues(eventLog.db);
    }

    @Override
    public final EventLog eventLog() {
        return eventLog;
    }

    @Override
    public final TaskQueue taskQueue() {
        return taskQueue;
    }

    @Override
    public final Signals signals() {
        return signals;
    }

    @Override
    public final RunQueries runQueries() {
        return runQueries;
    }

    @Override
    public final ScheduleStore schedules() {
        return schedules;
    }

    @Override
    public final QueueStore queues() {
        return queues;
    }

    @Override
    public final WorkerAccess workerAccess() {
        return workerAccess;
    }

    /**
     * Leases turns and reads their runs: by default a lease, then one {@link JdbcEventLog#load} by the worker; a
     * world whose lease statement can return the runs as well overrides this.
     */
    protected LeasedRuns leaseAndLoad(
            String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return new LeasedRuns(taskQueue.lease(workerId, queues, max, leaseFor, lookahead), Map.of());
    }

    private final class Access extends PlainWorkerAccess {

        private final boolean appendsInProcess;

        Access(boolean appendsInProcess) {
            super(SqlWorld.this);
            this.appendsInProcess = appendsInProcess;
        }

        @Override
        public LeasedRuns leaseAndLoad(
                String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
            return SqlWorld.this.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
        }

        @Override
        public Map<String, LoadedRun> load(Collection<String> runIds) {
            return eventLog.load(runIds);
        }

        @Override
        public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
            return eventLog.createLeased(run, workerId, leaseFor);
        }

        @Override
        public LeasedAppends appendLeasingStarts(
                List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
            return eventLog.appendLeasingStarts(appends, startsToLease, workerId, leaseFor);
        }

        @Override
        public boolean leasesMoves() {
            return true;
        }

        @Override
        public LeasedRuns moveLeasing(
                Collection<String> runIds,
                String from,
                String to,
                Instant at,
                Set<String> toLease,
                String workerId,
                Duration leaseFor) {
            return taskQueue.moveLeasing(runIds, from, to, at, toLease, workerId, leaseFor);
        }

        @Override
        public boolean appendsInProcess() {
            return appendsInProcess;
        }
    }
}
