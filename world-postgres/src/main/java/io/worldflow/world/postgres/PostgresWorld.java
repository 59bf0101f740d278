package io.worldflow.world.postgres;

import io.worldflow.format.ChainKey;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.jdbc.JdbcRunQueries;
import io.worldflow.world.jdbc.SqlWorld;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/** The Postgres world: every facet over one {@link Database}, with wake-ups by LISTEN/NOTIFY. */
final class PostgresWorld extends SqlWorld {

    private static final Logger log = LoggerFactory.getLogger(PostgresWorld.class);

    private final PgSettings settings;
    private final Database db;
    private final DueNotifier notifier;
    private final DueListener listener;
    private final PgTaskQueue taskQueue;
    private volatile boolean closed;

    private PostgresWorld(
            PgSettings settings,
            Database db,
            DueNotifier notifier,
            DueListener listener,
            WorldContext context,
            PgTaskQueue taskQueue) {
        super(
                new PgEventLog(
                        db,
                        context.codec(),
                        context.clock(),
                        ChainKey.fromConfig(context.config()).orElse(null)),
                taskQueue,
                new JdbcRunQueries(db, context.codec()) {
                    /** Hears of runs finished by any process through the world's end channel (LISTEN/NOTIFY). */
                    @Override
                    public TaskQueue.Subscription subscribeEnded(Consumer<String> ended) {
                        return listener.subscribeEnded(Objects.requireNonNull(ended, "ended"));
                    }
                },
                false);
        this.settings = settings;
        this.db = db;
        this.notifier = notifier;
        this.listener = listener;
        this.taskQueue = taskQueue;
    }

    /**
     * Connects (waiting up to the startup timeout while the database is unreachable), creates or migrates the
     * schema, and opens the pool. Leases of other workers are left alone: they lapse by themselves.
     */
    static PostgresWorld open(WorldContext context) {
        PgSettings settings = PgSettings.from(context.config());
        boolean vacuumTasks = context.config().getBoolean(PostgresWorldProvider.VACUUM_TASKS, true);
        Connector connector = new Connector(settings);
        int version;
        String serverVersion;
        boolean utf8;
        try (Connection first = connector.connectOnStart()) {
            try {
                version = Migrations.apply(first, settings, context.clock());
                serverVersion = first.getMetaData().getDatabaseProductVersion();
                // reported by the server on connecting
                utf8 = "UTF8".equalsIgnoreCase(first.unwrap(PGConnection.class).getParameterStatus("server_encoding"));
            } catch (SQLException e) {
                throw SqlFailures.wrap("creating or migrating the schema", null, settings, e);
            }
        } catch (SQLException e) {
            throw SqlFailures.wrap("closing the first connection", null, settings, e);
        }
        DueNotifier notifier = new DueNotifier("worldflow-postgres-due " + settings.schema());
        DueListener listener = new DueListener(settings, connector, notifier, context.clock());
        Database db = Database.open(settings, connector, notifier, utf8);
        log.info(
                "postgres world opened {} (PostgreSQL {}, schema version {}, pool of {})",
                settings.describe(),
                serverVersion,
                version,
                settings.poolSize());
        return new PostgresWorld(
                settings,
                db,
                notifier,
                listener,
                context,
                new PgTaskQueue(
                        db, context.codec(), context.clock(), notifier, listener, new TaskVacuum(db, vacuumTasks)));
    }

    @Override
    public String name() {
        return PostgresWorldProvider.NAME;
    }

    /** Whether the LISTEN connection is up (tests). */
    boolean isListening() {
        return listener.isListening();
    }

    /** One statement leases and reads the leased runs with their logs. */
    @Override
    protected LeasedRuns leaseAndLoad(
            String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return taskQueue.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
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
