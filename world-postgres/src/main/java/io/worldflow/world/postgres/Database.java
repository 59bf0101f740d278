package io.worldflow.world.postgres;

import io.worldflow.spi.DueNotifier;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.worldflow.WorldException;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;
import org.jooq.Field;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.postgresql.Driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;

/**
 * The pool of connections to the database and the three ways work runs on it: a write transaction, single
 * self-committing statements, and reads. Writes that make a turn due announce it with {@code pg_notify}
 * inside their transaction (delivered to listeners when it commits), and to this process's subscribers
 * once committed.
 */
final class Database implements AutoCloseable {

    /** How long a call waits for a free connection before failing with a transient error. */
    private static final long CONNECTION_TIMEOUT_MILLIS = 5_000;

    static {
        // jOOQ is an implementation detail here: no banner and tips on first use, and no warning that the
        // server is older than the newest PostgreSQL the open-source dialect targets (this world's SQL needs
        // PostgreSQL 13 or later). Each stays as the application set it, if it did.
        setIfAbsent("org.jooq.no-logo", "true");
        setIfAbsent("org.jooq.no-tips", "true");
        setIfAbsent("org.jooq.log.org.jooq.impl.DefaultExecuteContext.logVersionSupport", "ERROR");
    }

    private final PgSettings settings;
    private final HikariDataSource pool;
    private final DueNotifier notifier;
    private final String channel;
    private final Sql announce;
    final Tables tables;
    private volatile boolean closed;

    private Database(PgSettings settings, HikariDataSource pool, DueNotifier notifier) {
        this.settings = settings;
        this.pool = pool;
        this.notifier = notifier;
        this.channel = settings.channel();
        this.tables = new Tables(settings.schema(), settings.prefix());
        this.announce = Sql.of(DSL.select(announce()));
    }

    /** A pool over the database, which {@link Connector#connectOnStart} has shown to be reachable. */
    static Database open(PgSettings settings, Connector connector, DueNotifier notifier) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("worldflow-postgres-" + settings.schema());
        config.setJdbcUrl(settings.url());
        config.setDriverClassName(Driver.class.getName());
        config.setDataSourceProperties(connector.properties(Connector.MAX_CONNECT_SECONDS));
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(Math.min(2, settings.poolSize()));
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setValidationTimeout(Math.min(2_000, CONNECTION_TIMEOUT_MILLIS - 1));
        config.setAutoCommit(true);
        // reachability was checked just before; a failure from here on is reported by the call that meets it
        config.setInitializationFailTimeout(-1);
        return new Database(settings, new HikariDataSource(config), notifier);
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. When the
     * work noted a due instant, {@code pg_notify} announces it in the same transaction, and this process's
     * subscribers hear of it once committed.
     *
     * @param subject the run concerned, for error messages ({@link Failures#run}), or null
     */
    <T> T write(String operation, String subject, SqlWork<Tx, T> work) {
        ensureOpen();
        Tx tx;
        T result;
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try {
                tx = new Tx(c);
                result = work.run(tx);
                if (tx.needsAnnouncement()) {
                    try (Sql.Call notify = tx.call(announce)) {
                        notify.set("channel", channel).set("due", announcement(tx.wake())).query().close();
                    }
                }
                c.commit();
            } catch (SQLException | RuntimeException | Error e) {
                rollback(c, e);
                throw e;
            }
        } catch (SQLException | DataAccessException e) {
            throw SqlFailures.wrap(operation, subject, settings, e);
        }
        if (tx.wake() != null) {
            notifier.due(tx.wake());
        }
        return result;
    }

    /**
     * Runs {@code work} in autocommit mode: each statement commits on its own. For writes of one statement;
     * one that makes a turn due calls {@code pg_notify} itself ({@link #announce()}) and notes the instant,
     * which this process's subscribers hear of afterwards.
     */
    <T> T autocommit(String operation, String subject, SqlWork<Tx, T> work) {
        ensureOpen();
        Tx tx;
        T result;
        try (Connection c = pool.getConnection()) {
            tx = new Tx(c);
            result = work.run(tx);
        } catch (SQLException | DataAccessException e) {
            throw SqlFailures.wrap(operation, subject, settings, e);
        }
        if (tx.wake() != null) {
            notifier.due(tx.wake());
        }
        return result;
    }

    /** Runs {@code work} (reads) in autocommit mode. */
    <T> T read(String operation, String subject, SqlWork<Tx, T> work) {
        ensureOpen();
        try (Connection c = pool.getConnection()) {
            return work.run(new Tx(c));
        } catch (SQLException | DataAccessException e) {
            throw SqlFailures.wrap(operation, subject, settings, e);
        }
    }

    /** The NOTIFY channel of this world's tables. */
    String channel() {
        return channel;
    }

    /** The NOTIFY channel that names finished runs. */
    String endChannel() {
        return settings.endChannel();
    }

    /**
     * {@code pg_notify(:channel, :due)}: to select inside a statement that makes a turn due, with the
     * channel and the due instant in epoch microseconds as text ({@link #announcement}).
     */
    static Field<Object> announce() {
        return function("pg_notify", Object.class, param("channel", String.class), param("due", String.class));
    }

    /**
     * {@code pg_notify(<end channel>, :endedPayload)}: selected by a write that finishes runs, naming them
     * ({@link AppendColumns#endedPayload}); delivered to listeners when the write commits.
     */
    static Field<Object> endNotice(String endChannel) {
        return function("pg_notify", Object.class, inline(endChannel), param("endedPayload", String.class));
    }

    /** The payload announcing {@code dueAt}. */
    static String announcement(Instant dueAt) {
        return Long.toString(Micros.of(dueAt));
    }

    /** Closes the pool (connections in use are closed as they are returned). Idempotent. */
    @Override
    public void close() {
        closed = true;
        pool.close();
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static void rollback(Connection c, Throwable failure) {
        try {
            c.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new WorldException("postgres world on " + settings.describe() + " is closed", false, null);
        }
    }
}
