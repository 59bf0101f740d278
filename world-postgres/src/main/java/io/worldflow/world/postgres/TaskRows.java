package io.worldflow.world.postgres;

import io.worldflow.spi.Lease;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Changes to the {@code tasks} table that several facets share, always inside a write. A run has at most
 * one row: its pending (or leased) turn. Each statement that makes a turn due announces it itself.
 */
final class TaskRows {

    /** A turn to end: the lease that holds it and when the run's next turn is due (null: none). */
    record End(String runId, String token, Instant wakeAt) {
        static End of(Lease lease, Instant wakeAt) {
            return new End(lease.runId(), lease.token(), wakeAt);
        }
    }

    private final String channel;
    private final Sql makeDue;
    private final Sql removeEnded;
    private final Sql moveEnded;

    TaskRows(SqlDialect dialect, String channel) {
        this.channel = channel;
        // A new row; or an unleased row keeps the earlier due time; a leased row records the request for when its
        // lease ends (and, when the lease has lapsed, is also due at once). Announced when the turn is free.
        this.makeDue = Sql.of(dialect.tables("""
                WITH due AS (
                    INSERT INTO {tasks} AS t (run_id, queue, priority, available_at, deliveries)
                    VALUES (:runId, :queue, :priority, :at, 0)
                    ON CONFLICT (run_id) DO UPDATE SET
                        requested_at = CASE WHEN t.lease_token IS NULL THEN NULL
                                            ELSE least(t.requested_at, excluded.available_at) END,
                        available_at = CASE WHEN t.lease_token IS NULL OR t.lease_expires <= :now
                                            THEN least(t.available_at, excluded.available_at) ELSE t.available_at END
                    RETURNING t.available_at, (t.lease_token IS NULL OR t.lease_expires <= :now) AS free)
                SELECT available_at, free, CASE WHEN free THEN pg_notify(:channel, available_at::text) END FROM due"""));
        String ends = "unnest(CAST(:runIds AS text[]), CAST(:tokens AS text[]), CAST(:wakes AS bigint[]))"
                + " AS i (run_id, token, wake_at)";
        // nothing next and nothing requested meanwhile: the turn is gone
        this.removeEnded = Sql.of(dialect.tables("DELETE FROM {tasks} AS t USING " + ends + " WHERE t.run_id = i.run_id"
                + " AND t.lease_token = i.token AND i.wake_at IS NULL AND t.requested_at IS NULL"));
        // else due at the earlier of the wake time and the turn requested meanwhile
        this.moveEnded = Sql.of(dialect.tables("""
                WITH moved AS (
                    UPDATE {tasks} AS t SET available_at = coalesce(least(t.requested_at, i.wake_at), t.available_at),
                        requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL, deliveries = 0
                    FROM %s
                    WHERE t.run_id = i.run_id AND t.lease_token = i.token
                    RETURNING t.available_at)
                SELECT earliest, CASE WHEN earliest IS NOT NULL THEN pg_notify(:channel, earliest::text) END
                FROM (SELECT min(available_at) AS earliest FROM moved) AS m""".formatted(ends)));
    }

    /** Makes an existing, unfinished run due at {@code at}. The caller holds the run's row lock. */
    void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        // still leased: the holder's turn end (or the lease's expiry) makes it due
        tx.call(makeDue)
                .set("runId", runId)
                .set("queue", queue)
                .set("priority", priority)
                .set("at", Micros.of(at))
                .set("now", Micros.of(now))
                .set("channel", channel)
                .list(rs -> rs.getBoolean(2) ? Micros.read(rs, 1) : null)
                .forEach(tx::announced);
    }

    /**
     * Ends the turns held by these leases, set-wise; a stale lease changes nothing. A turn with nothing next
     * and nothing requested meanwhile is removed; the others are due at the earlier of their wake time and
     * the turn requested meanwhile.
     */
    void complete(Tx tx, Collection<End> ends) throws SQLException {
        List<End> unique = new ArrayList<>(ends.size());
        Set<String> seen = new HashSet<>();
        boolean anyWithoutWake = false;
        for (End e : ends) {
            if (seen.add(e.runId() + '\u0000' + e.token())) {
                unique.add(e);
                anyWithoutWake |= e.wakeAt() == null;
            }
        }
        if (unique.isEmpty()) {
            return;
        }
        String[] runIds = new String[unique.size()];
        String[] tokens = new String[unique.size()];
        Long[] wakes = new Long[unique.size()];
        for (int i = 0; i < unique.size(); i++) {
            runIds[i] = unique.get(i).runId();
            tokens[i] = unique.get(i).token();
            wakes[i] = Micros.orNull(unique.get(i).wakeAt());
        }
        int removed = anyWithoutWake
                ? tx.call(removeEnded)
                        .set("runIds", runIds)
                        .set("tokens", tokens)
                        .set("wakes", wakes)
                        .update()
                : 0;
        if (removed == unique.size()) {
            return;
        }
        tx.call(moveEnded)
                .set("runIds", runIds)
                .set("tokens", tokens)
                .set("wakes", wakes)
                .set("channel", channel)
                .list(rs -> Micros.read(rs, 1))
                .forEach(tx::announced);
    }
}
