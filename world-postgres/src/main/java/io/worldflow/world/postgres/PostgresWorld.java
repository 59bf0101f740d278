package io.worldflow.world.postgres;

import io.worldflow.spi.CreateResult;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.jdbc.JdbcSignals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/** The Postgres world: every facet over one {@link Database}, with wake-ups by LISTEN/NOTIFY. */
final class PostgresWorld implements World {

    private static final Logger log = LoggerFactory.getLogger(PostgresWorld.class);

    private final PgSettings settings;
    private final Database db;
    private final DueNotifier notifier;
    private final DueListener listener;
    private final PgEventLog eventLog;
    private final PgTaskQueue taskQueue;
    private final JdbcSignals signals;
    private final PgRunQueries runQueries;
    private final WorkerAccess workerAccess = new Access();
    private volatile boolean closed;

    private PostgresWorld(PgSettings settings, Database db, DueNotifier notifier, DueListener listener,
                          WorldContext context) {
        this.settings = settings;
        this.db = db;
        this.notifier = notifier;
        this.listener = listener;
        this.eventLog = new PgEventLog(db, context.codec(), context.clock());
        this.taskQueue = new PgTaskQueue(db, context.codec(), context.clock(), notifier, listener);
        this.signals = new JdbcSignals(db, context.clock());
        this.runQueries = new PgRunQueries(db, context.codec(), listener);
    }

    /**
     * Connects (waiting up to the startup timeout while the database is unreachable), creates or migrates the
     * schema, and opens the pool. Leases of other workers are left alone: they lapse by themselves.
     */
    static PostgresWorld open(WorldContext context) {
        PgSettings settings = PgSettings.from(context.config());
        Connector connector = new Connector(settings);
        int version;
        String serverVersion;
        boolean utf8;
        try (Connection first = connector.connectOnStart()) {
            try {
                version = Migrations.apply(first, settings, context.clock());
                serverVersion = first.getMetaData().getDatabaseProductVersion();
                utf8 = "UTF8".equalsIgnoreCase(setting(first, "server_encoding"));
            } catch (SQLException e) {
                throw SqlFailures.wrap("creating or migrating the schema", null, settings, e);
            }
        } catch (SQLException e) {
            throw SqlFailures.wrap("closing the first connection", null, settings, e);
        }
        DueNotifier notifier = new DueNotifier("worldflow-postgres-due " + settings.schema());
        DueListener listener = new DueListener(settings, connector, notifier, context.clock());
        Database db = Database.open(settings, connector, notifier, utf8);
        log.info("postgres world opened {} (PostgreSQL {}, schema version {}, pool of {})", settings.describe(),
                serverVersion, version, settings.poolSize());
        return new PostgresWorld(settings, db, notifier, listener, context);
    }

    private static String setting(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT current_setting('" + name + "')")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Override
    public String name() {
        return PostgresWorldProvider.NAME;
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

    /** Whether the LISTEN connection is up (tests). */
    boolean isListening() {
        return listener.isListening();
    }

    @Override
    public WorkerAccess workerAccess() {
        return workerAccess;
    }

    /** Every request in one statement; appends go over the network, so the committer's thread makes them. */
    private final class Access implements WorkerAccess {

        /** One statement leases and reads the leased runs with their logs. */
        @Override
        public LeasedRuns leaseAndLoad(String workerId, Set<String> queues, int max, Duration leaseFor,
                                       Duration lookahead) {
            return taskQueue.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
        }

        @Override
        public Map<String, LoadedRun> load(Collection<String> runIds) {
            return eventLog.load(runIds);
        }

        /** One statement creates the run and leases its first turn, without a NOTIFY. */
        @Override
        public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
            return eventLog.createLeased(run, workerId, leaseFor);
        }

        @Override
        public boolean appendsInProcess() {
            return false;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            listener.close();
        } finally {
            try {
                notifier.close();
            } finally {
                db.close();
            }
        }
    }

    @Override
    public String toString() {
        return "PostgresWorld[" + settings.describe() + "]";
    }
}
