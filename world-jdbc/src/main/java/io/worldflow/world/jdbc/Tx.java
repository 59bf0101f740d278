package io.worldflow.world.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;

/**
 * SQL in progress on one connection: a write transaction, single self-committing statements, or reads. Besides
 * running SQL it collects the earliest instant at which the work makes a turn due, so that subscribers can be
 * told once it has committed, and whether a statement announced that instant already.
 */
public final class Tx {

    private final Connection connection;
    private final Map<String, PreparedStatement> cache;
    private Instant wake;
    private Instant announced;

    /**
     * @param cache the connection's prepared statements by text, kept for reuse (the connection's owner closes
     *              them), or null to prepare each statement for its call and close it after
     */
    public Tx(Connection connection, Map<String, PreparedStatement> cache) {
        this.connection = connection;
        this.cache = cache;
    }

    public Connection connection() {
        return connection;
    }

    /** A call of {@code sql} on this connection. */
    public Sql.Call call(Sql sql) throws SQLException {
        return sql.new Call(this, prepare(sql.text));
    }

    /**
     * A prepared statement for positional SQL; with a cache, the caller closes the result sets it opens, never the
     * statement.
     */
    public PreparedStatement prepare(String sql) throws SQLException {
        if (cache == null) {
            return connection.prepareStatement(sql);
        }
        PreparedStatement ps = cache.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            cache.put(sql, ps);
        } else {
            ps.clearParameters();
            ps.clearBatch();
        }
        return ps;
    }

    void done(PreparedStatement ps) throws SQLException {
        if (cache == null) {
            ps.close();
        }
    }

    /** Notes that a turn becomes due at {@code at} once this work commits. */
    public void wakeAt(Instant at) {
        if (at != null && (wake == null || at.isBefore(wake))) {
            wake = at;
        }
    }

    /** Notes that a statement of this work announced {@code at} to other processes already. */
    public void announced(Instant at) {
        wakeAt(at);
        if (at != null && (announced == null || at.isBefore(announced))) {
            announced = at;
        }
    }

    /** The earliest due instant noted, or null. */
    public Instant wake() {
        return wake;
    }

    /** Whether the earliest due instant still needs announcing to other processes. */
    public boolean needsAnnouncement() {
        return wake != null && (announced == null || wake.isBefore(announced));
    }
}
