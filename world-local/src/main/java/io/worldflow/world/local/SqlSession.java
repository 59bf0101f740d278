package io.worldflow.world.local;

import io.worldflow.world.jdbc.Tx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One SQLite connection with its prepared statements kept for reuse. Used by one thread at a time
 * (the writer under its lock, a reader while borrowed from the pool).
 */
final class SqlSession implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SqlSession.class);
    private static final int CACHED_STATEMENTS = 64;

    private final Connection connection;
    private boolean inTransaction;
    private final Map<String, PreparedStatement> cache = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= CACHED_STATEMENTS) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    SqlSession(Connection connection) {
        this.connection = connection;
    }

    /** The connection itself, for work that manages its own JDBC transaction (the schema migration). */
    Connection connection() {
        return connection;
    }

    /** A new transaction's or read's view of this connection, sharing its statements. */
    Tx tx() {
        return new Tx(connection, cache);
    }

    private PreparedStatement prepare(String sql) throws SQLException {
        return tx().prepare(sql);
    }

    /** Runs SQL without parameters or results (DDL, pragmas, transaction control). */
    void execute(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    void begin() throws SQLException {
        prepare("BEGIN IMMEDIATE").executeUpdate();
        inTransaction = true;
    }

    /**
     * Sets the connection's {@code synchronous} level for the transactions that follow (a pragma takes
     * effect between transactions, not inside one).
     */
    void synchronous(String level) throws SQLException {
        prepare("PRAGMA synchronous = " + level).execute();
    }

    void commit() throws SQLException {
        prepare("COMMIT").executeUpdate();
        inTransaction = false;
    }

    /** Rolls back the open transaction after {@code failure}; a failure to roll back is attached to it. */
    void rollback(Throwable failure) {
        if (!inTransaction) {
            return;
        }
        inTransaction = false;
        try {
            prepare("ROLLBACK").executeUpdate();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        cache.values().forEach(SqlSession::closeQuietly);
        cache.clear();
        try {
            connection.close();
        } catch (SQLException e) {
            log.warn("closing a SQLite connection failed", e);
        }
    }

    private static void closeQuietly(Statement st) {
        try {
            st.close();
        } catch (SQLException e) {
            log.debug("closing a statement failed", e);
        }
    }
}
