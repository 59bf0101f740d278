package io.worldflow.world.postgres;

import io.worldflow.WorldException;
import io.worldflow.world.postgres.internal.ListenSocketFactory;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * Opens connections to the configured database outside the pool: the first one on start (waiting, with
 * backoff, while the database cannot be reached) and the LISTEN connection.
 */
final class Connector {

    private static final Logger log = LoggerFactory.getLogger(Connector.class);
    private static final Driver DRIVER = new Driver();
    /** Whether the driver, which loads a socket factory by name, finds {@link ListenSocketFactory} as this class does. */
    private static final boolean LISTEN_SOCKETS_VISIBLE = visibleToDriver(ListenSocketFactory.class);
    /** The longest a single connection attempt may take (pgjdbc's connectTimeout, in whole seconds). */
    static final int MAX_CONNECT_SECONDS = 10;

    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 2_000;
    private static final long REPORT_EVERY_NANOS = Duration.ofSeconds(10).toNanos();

    private final PgSettings settings;

    Connector(PgSettings settings) {
        this.settings = settings;
    }

    /** Driver properties for the pool and for direct connections. */
    Properties properties(int connectTimeoutSeconds) {
        Properties p = new Properties();
        if (settings.user() != null) {
            p.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            p.setProperty("password", settings.password());
        }
        p.setProperty("ApplicationName", "worldflow");
        p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds));
        p.setProperty("loginTimeout", Integer.toString(connectTimeoutSeconds));
        p.setProperty("tcpKeepAlive", "true");
        // a JDBC batch of inserts travels as multi-row INSERTs
        p.setProperty("reWriteBatchedInserts", "true");
        return p;
    }

    /** One attempt. */
    Connection connect(int connectTimeoutSeconds) throws SQLException {
        return connect(properties(connectTimeoutSeconds));
    }

    /**
     * One attempt at the LISTEN connection: its sockets hand notifications over as soon as they arrive
     * ({@link ListenSocketFactory}), unless the URL names a socket factory of its own or the driver cannot see
     * that class.
     */
    Connection connectForListening(int connectTimeoutSeconds) throws SQLException {
        Properties p = properties(connectTimeoutSeconds);
        if (LISTEN_SOCKETS_VISIBLE) {
            p.setProperty("socketFactory", ListenSocketFactory.class.getName());
        }
        return connect(p);
    }

    private Connection connect(Properties properties) throws SQLException {
        Connection c = DRIVER.connect(settings.url(), properties);
        if (c == null) {
            throw new SQLException("the PostgreSQL driver does not accept the URL " + settings.maskedUrl());
        }
        return c;
    }

    /**
     * Connects, trying again with backoff while the database is unreachable (down, starting up, refusing
     * connections) until the startup timeout has passed.
     *
     * @throws WorldException transient when the timeout passed; not transient when the server refused the
     *                        login or the database does not exist
     */
    Connection connectOnStart() {
        long start = System.nanoTime();
        long deadline = start + settings.startupTimeout().toNanos();
        long backoff = FIRST_BACKOFF_MILLIS;
        long nextReport = start;
        int attempts = 0;
        while (true) {
            attempts++;
            long remainingNanos = deadline - System.nanoTime();
            int timeout = (int) Math.max(
                    1,
                    Math.min(
                            MAX_CONNECT_SECONDS,
                            Duration.ofNanos(Math.max(0, remainingNanos)).toSeconds()));
            try {
                Connection c = connect(timeout);
                if (attempts > 1) {
                    log.info("postgres world: reached {} after {} attempts", settings.maskedUrl(), attempts);
                }
                return c;
            } catch (SQLException e) {
                if (SqlFailures.isLoginRefused(e)) {
                    throw SqlFailures.loginRefused(settings, e);
                }
                if (!SqlFailures.isTransient(e)) {
                    throw new WorldException(
                            "postgres world: cannot connect to " + settings.describe() + ": " + e.getMessage()
                                    + (e.getSQLState() == null ? "" : " [SQLState " + e.getSQLState() + "]"),
                            false,
                            e);
                }
                long now = System.nanoTime();
                if (now >= deadline) {
                    throw new WorldException(
                            "postgres world: could not reach " + settings.describe() + " within "
                                    + settings.startupTimeout() + " (" + PostgresWorldProvider.STARTUP_TIMEOUT + ", "
                                    + attempts + " attempts): " + e.getMessage(),
                            true,
                            e);
                }
                if (now >= nextReport) {
                    log.warn(
                            "postgres world: cannot reach {} yet ({}); trying again for up to {}",
                            settings.maskedUrl(),
                            e.getMessage(),
                            Duration.ofNanos(deadline - now).withNanos(0));
                    nextReport = now + REPORT_EVERY_NANOS;
                }
                sleep(Math.min(backoff, Math.max(1, (deadline - now) / 1_000_000)));
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
    }

    /** Whether the LISTEN connection gets {@link ListenSocketFactory}'s sockets. */
    static boolean listenSocketsVisible() {
        return LISTEN_SOCKETS_VISIBLE;
    }

    private static boolean visibleToDriver(Class<?> type) {
        try {
            return Class.forName(type.getName(), false, Driver.class.getClassLoader()) == type;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("postgres world: interrupted while waiting for the database", true, e);
        }
    }
}
