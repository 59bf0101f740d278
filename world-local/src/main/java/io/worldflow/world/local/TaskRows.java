package io.worldflow.world.local;

import io.worldflow.spi.Lease;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Tx;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Changes to the {@code tasks} table that several facets share, always inside a write transaction.
 * A run has at most one row: its pending (or leased) turn.
 */
final class TaskRows {

    private static final String INSERT = """
            INSERT INTO tasks (run_id, queue, priority, available_at, deliveries) VALUES (?, ?, ?, ?, 0)""";

    /** A new run's first turn, leased at once: ?5 owner, ?6 lease expiry. */
    private static final String INSERT_LEASED = """
            INSERT INTO tasks (run_id, queue, priority, available_at, lease_token, lease_owner, lease_expires, deliveries)
            VALUES (?1, ?2, ?3, ?4, lower(hex(randomblob(16))), ?5, ?6, 1)
            RETURNING lease_token""";

    /**
     * Makes a run due at ?4: a new row; or an unleased row keeps the earlier due time; a leased row records
     * the request for when its lease ends (and, when the lease has expired, is also due at once).
     */
    private static final String MAKE_DUE = """
            INSERT INTO tasks (run_id, queue, priority, available_at, deliveries) VALUES (?1, ?2, ?3, ?4, 0)
            ON CONFLICT (run_id) DO UPDATE SET
                requested_at = CASE WHEN lease_expires IS NULL THEN NULL
                                    ELSE MIN(COALESCE(requested_at, excluded.available_at), excluded.available_at) END,
                available_at = CASE WHEN lease_expires IS NULL OR lease_expires <= ?5
                                    THEN MIN(available_at, excluded.available_at) ELSE available_at END
            RETURNING available_at, lease_expires""";

    /** Ends a turn with nothing next: only when no turn was requested while leased. */
    private static final String DELETE_LEASED = """
            DELETE FROM tasks WHERE run_id = ? AND lease_token = ? AND requested_at IS NULL""";

    /** Ends a turn: the next one is due at the earlier of ?1 (may be NULL) and the turn requested meanwhile. */
    private static final String COMPLETE = """
            UPDATE tasks SET
                available_at = CASE WHEN requested_at IS NULL THEN ?1
                                    WHEN ?1 IS NULL THEN requested_at
                                    ELSE MIN(requested_at, ?1) END,
                requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL, deliveries = 0
            WHERE run_id = ?2 AND lease_token = ?3
            RETURNING available_at""";

    private static final String DELETE = "DELETE FROM tasks WHERE run_id = ?";

    /** Every lease dropped, each turn due no later than a turn requested during it. */
    private static final String CLEAR_LEASES = """
            UPDATE tasks SET
                available_at = MIN(available_at, COALESCE(requested_at, available_at)),
                requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL
            WHERE lease_expires IS NOT NULL""";

    private TaskRows() {
    }

    /** A new run's first turn. */
    static void insert(Tx tx, String runId, String queue, int priority, Instant at) throws SQLException {
        PreparedStatement ps = tx.prepare(INSERT);
        ps.setString(1, runId);
        ps.setString(2, queue);
        ps.setInt(3, priority);
        Micros.bind(ps, 4, at);
        ps.executeUpdate();
        tx.wakeAt(Micros.truncate(at));
    }

    /** A new run's first turn, leased to {@code owner} until {@code expires}: nobody else is woken for it. */
    static Lease insertLeased(Tx tx, String runId, String queue, int priority, Instant at, String owner,
                              Instant expires) throws SQLException {
        PreparedStatement ps = tx.prepare(INSERT_LEASED);
        ps.setString(1, runId);
        ps.setString(2, queue);
        ps.setInt(3, priority);
        Micros.bind(ps, 4, at);
        ps.setString(5, owner);
        Micros.bind(ps, 6, expires);
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Lease(runId, rs.getString(1), queue, expires, 1);
        }
    }

    /** Makes an existing, unfinished run due at {@code at}, or keeps an earlier due time. */
    static void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        PreparedStatement ps = tx.prepare(MAKE_DUE);
        ps.setString(1, runId);
        ps.setString(2, queue);
        ps.setInt(3, priority);
        Micros.bind(ps, 4, at);
        Micros.bind(ps, 5, now);
        try (ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                Instant due = Micros.read(rs, 1);
                Instant leaseExpires = Micros.read(rs, 2);
                if (leaseExpires == null || !leaseExpires.isAfter(now)) {
                    tx.wakeAt(due);
                }
                // still leased: the holder's complete (or the lease's expiry) makes it due
            }
        }
    }

    /** Ends the turn held by {@code lease}; a stale lease changes nothing. */
    static void complete(Tx tx, Lease lease, Instant wakeAt) throws SQLException {
        if (wakeAt == null) {
            PreparedStatement delete = tx.prepare(DELETE_LEASED);
            delete.setString(1, lease.runId());
            delete.setString(2, lease.token());
            if (delete.executeUpdate() > 0) {
                return;
            }
        }
        PreparedStatement ps = tx.prepare(COMPLETE);
        Micros.bind(ps, 1, wakeAt);
        ps.setString(2, lease.runId());
        ps.setString(3, lease.token());
        try (ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                tx.wakeAt(Micros.read(rs, 1));
            }
        }
    }

    /** A finished run has no turns. */
    static void delete(Tx tx, String runId) throws SQLException {
        PreparedStatement ps = tx.prepare(DELETE);
        ps.setString(1, runId);
        ps.executeUpdate();
    }

    /**
     * Drops every lease, for a process that has just taken the file: whoever held them is gone.
     *
     * @return how many leases were dropped
     */
    static int clearAllLeases(Tx tx, Instant now) throws SQLException {
        int cleared = tx.prepare(CLEAR_LEASES).executeUpdate();
        if (cleared > 0) {
            tx.wakeAt(now);
        }
        return cleared;
    }
}
