package io.worldflow.world.local;

import io.worldflow.spi.CreateResult;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PlainWorkerAccess;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.jdbc.JdbcRunQueries;
import io.worldflow.world.jdbc.JdbcSignals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/** The local world: every facet over one {@link Database}. */
final class LocalWorld implements World {

    private static final Logger log = LoggerFactory.getLogger(LocalWorld.class);

    private final Database db;
    private final DueNotifier notifier;
    private final LocalEventLog eventLog;
    private final LocalTaskQueue taskQueue;
    private final JdbcSignals signals;
    private final JdbcRunQueries runQueries;
    private final WorkerAccess workerAccess;

    private LocalWorld(Database db, WorldContext context, DueNotifier notifier) {
        this.db = db;
        this.notifier = notifier;
        this.eventLog = new LocalEventLog(db, context.codec(), context.clock());
        this.taskQueue = new LocalTaskQueue(db, context.clock(), notifier);
        this.signals = new JdbcSignals(db, context.clock());
        this.runQueries = new JdbcRunQueries(db, context.codec());
        this.workerAccess = new Access(this);
    }

    /**
     * Opens the file and drops the leases a previous owner left: this process owns the file now, so whoever
     * held them is gone, and their runs are due again at once.
     */
    static LocalWorld open(WorldContext context) {
        LocalSettings settings = LocalSettings.from(context.config());
        DueNotifier notifier = new DueNotifier("worldflow-local-due " + settings.path().getFileName());
        Database db = Database.open(settings, context.clock(), notifier);
        try {
            int cleared = db.write("clear leases", null, tx -> TaskRows.clearAllLeases(tx, context.clock().instant()));
            log.info("local world opened {} (schema version {}, synchronous {}{})", settings.path(),
                    db.schemaVersion(), settings.synchronous(),
                    cleared == 0 ? "" : ", " + cleared + " lease(s) of a previous process dropped");
            return new LocalWorld(db, context, notifier);
        } catch (RuntimeException e) {
            db.close();
            notifier.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return LocalWorldProvider.NAME;
    }

    @Override
    public EventLog eventLog() {
        return eventLog;
    }

    @Override
    public TaskQueue taskQueue() {
        return taskQueue;
    }

    @Override
    public Signals signals() {
        return signals;
    }

    @Override
    public RunQueries runQueries() {
        return runQueries;
    }

    @Override
    public WorkerAccess workerAccess() {
        return workerAccess;
    }

    /**
     * Runs read in chunks, a run created with its first turn leased, and appends made by the thread that waits for
     * them; a lease is one statement either way, so it reads nothing more.
     */
    private static final class Access extends PlainWorkerAccess {
        private final LocalWorld world;

        Access(LocalWorld world) {
            super(world);
            this.world = world;
        }

        @Override
        public Map<String, LoadedRun> load(Collection<String> runIds) {
            return world.eventLog.load(runIds);
        }

        @Override
        public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
            return world.eventLog.createLeased(run, workerId, leaseFor);
        }

        /** SQLite runs in this process: the thread that waits for an append may as well make it. */
        @Override
        public boolean appendsInProcess() {
            return true;
        }
    }

    @Override
    public void close() {
        try {
            db.close();
        } finally {
            notifier.close();
        }
    }

    @Override
    public String toString() {
        return "LocalWorld[" + db.path() + "]";
    }
}
