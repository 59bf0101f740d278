package io.worldflow.world.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.worldflow.WorldException;
import io.worldflow.spi.DueNotifier;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDatabase;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.SqlWork;
import io.worldflow.world.jdbc.Tx;
import org.postgresql.Driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The pool of connections to the database and the three ways work runs on it: a write transaction, single
 * self-committing statements, and reads. Writes that make a turn due announce it with {@code pg_notify}
 * inside their transaction (delivered to listeners when it commits), and to this process's subscribers
 * once committed.
 */
final class Database implements SqlDatabase, AutoCloseable {

    /** How long a call waits for a free connection before failing with a transient error. */
    private static final long CONNECTION_TIMEOUT_MILLIS = 5_000;

    private final PgSettings settings;
    private final HikariDataSource pool;
    private final DueNotifier notifier;
    private final String channel;
    private final Sql announce;
    private final PgDialect dialect;
    private volatile boolean closed;

    private Database(PgSettings settings, HikariDataSource pool, DueNotifier notifier, boolean utf8) {
        this.settings = settings;
        this.pool = pool;
        this.notifier = notifier;
        this.channel = settings.channel();
        this.announce = Sql.of("SELECT pg_notify(:channel, :due)");
        this.dialect = new PgDialect(settings, utf8);
    }

    /** A pool over the database, which {@link Connector#connectOnStart} has shown to be reachable. */
    static Database open(PgSettings settings, Connector connector, DueNotifier notifier, boolean utf8) {
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
        return new Database(settings, new HikariDataSource(config), notifier, utf8);
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. When the
     * work noted a due instant, {@code pg_notify} announces it in the same transaction, and this process's
     * subscribers hear of it once committed.
     *
     * @param subject the run concerned, for error messages ({@link Failures#run}), or null
     */
    @Override
    public <T> T write(String operation, String subject, SqlWork<T> work) {
        return autocommit(operation, subject, tx -> {
            Connection c = tx.connection();
            c.setAutoCommit(false); // the pool sets it back when the connection returns
            try {
                T result = work.run(tx);
                if (tx.needsAnnouncement()) {
                    tx.call(announce)
                            .set("channel", channel)
                            .set("due", announcement(tx.wake()))
                            .each(rs -> null);
                }
                c.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                rollback(c, e);
                throw e;
            }
        });
    }

    /**
     * Runs {@code work} in autocommit mode: each statement commits on its own. For writes of one statement;
     * one that makes a turn due calls {@code pg_notify} itself (as {@link PgDialect#makeDue} does) and notes the instant,
     * which this process's subscribers hear of afterwards.
     */
    <T> T autocommit(String operation, String subject, SqlWork<T> work) {
        ensureOpen();
        Tx tx;
        T result;
        try (Connection c = pool.getConnection()) {
            tx = new Tx(c, null);
            result = work.run(tx);
        } catch (SQLException e) {
            throw SqlFailures.wrap(operation, subject, settings, e);
        }
        if (tx.wake() != null) {
            notifier.due(tx.wake());
        }
        return result;
    }

    /** Runs {@code work} (reads) in autocommit mode. */
    @Override
    public <T> T read(String operation, String subject, SqlWork<T> work) {
        return autocommit(operation, subject, work);
    }

    @Override
    public SqlDialect dialect() {
        return dialect;
    }

    /** A table's name without its schema, as the server names it in an error. */
    String tableName(String name) {
        return settings.prefix() + name;
    }

    /** The NOTIFY channel of this world's tables. */
    String channel() {
        return channel;
    }

    /** The NOTIFY channel that names finished runs. */
    String endChannel() {
        return settings.endChannel();
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
