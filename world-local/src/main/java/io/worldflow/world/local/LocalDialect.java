package io.worldflow.world.local;

import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;

/**
 * SQLite's answers: tables by their plain names in the one file, no row locks (the single writer connection makes
 * every write wait for the one before), text compared as UTF-8 bytes; and the changes to the {@code tasks} table that
 * several facets share, always inside a write transaction. A run has at most one row there: its pending (or leased)
 * turn.
 */
enum LocalDialect implements SqlDialect {
    INSTANCE;

    private static final Sql INSERT = Sql.of("""
            INSERT INTO tasks (run_id, queue, priority, available_at, deliveries, flow_key)
            VALUES (:runId, :queue, :priority, :at, 0, :flowKey)""");

    /** A new run's first turn, leased at once. */
    private static final Sql INSERT_LEASED = Sql.of("""
            INSERT INTO tasks (run_id, queue, priority, available_at, lease_token, lease_owner, lease_expires, deliveries,
                               flow_key)
            VALUES (:runId, :queue, :priority, :at, lower(hex(randomblob(16))), :owner, :expires, 1, :flowKey)
            RETURNING lease_token""");

    /**
     * Makes a run due at {@code :at}: a new row; or an unleased row keeps the earlier due time; a leased row records
     * the request for when its lease ends (and, when the lease has expired, is also due at once). Returns the due
     * time when the turn is free.
     */
    private static final Sql MAKE_DUE = Sql.of("""
            INSERT INTO tasks (run_id, queue, priority, available_at, deliveries)
            VALUES (:runId, :queue, :priority, :at, 0)
            ON CONFLICT (run_id) DO UPDATE SET
                requested_at = CASE WHEN lease_expires IS NULL THEN NULL
                                    ELSE MIN(COALESCE(requested_at, excluded.available_at), excluded.available_at) END,
                available_at = CASE WHEN lease_expires IS NULL OR lease_expires <= :now
                                    THEN MIN(available_at, excluded.available_at) ELSE available_at END
            RETURNING CASE WHEN lease_expires IS NULL OR lease_expires <= :now THEN available_at END""");

    /** Ends a turn with nothing next: only when no turn was requested while leased. */
    private static final Sql DELETE_LEASED = Sql.of("""
            DELETE FROM tasks WHERE run_id = :runId AND lease_token = :token AND requested_at IS NULL""");

    /** Ends a turn: the next one is due at the earlier of {@code :wakeAt} (may be NULL) and the turn requested meanwhile. */
    private static final Sql COMPLETE = Sql.of("""
            UPDATE tasks SET
                available_at = CASE WHEN requested_at IS NULL THEN :wakeAt
                                    WHEN :wakeAt IS NULL THEN requested_at
                                    ELSE MIN(requested_at, :wakeAt) END,
                requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL, deliveries = 0
            WHERE run_id = :runId AND lease_token = :token
            RETURNING available_at""");

    private static final Sql DELETE = Sql.of("DELETE FROM tasks WHERE run_id = :runId");

    /** Every lease dropped, each turn due no later than a turn requested during it. */
    private static final Sql CLEAR_LEASES = Sql.of("""
            UPDATE tasks SET
                available_at = MIN(available_at, COALESCE(requested_at, available_at)),
                requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL
            WHERE lease_expires IS NOT NULL""");

    /**
     * A new run's first turn: leased to {@code owner} until {@code expires} when an owner is given (nobody else is
     * woken for it), else due at the run's time.
     *
     * @return the lease, or null
     */
    static Lease insertTurn(Tx tx, NewRun run, String owner, Instant expires) throws SQLException {
        Sql.Call call = tx.call(owner == null ? INSERT : INSERT_LEASED)
                .set("runId", run.runId())
                .set("queue", run.turnQueue())
                .set("priority", run.priority())
                .set("at", Micros.of(run.availableAt()))
                .set("flowKey", run.key());
        if (owner == null) {
            call.update();
            tx.wakeAt(Micros.truncate(run.availableAt()));
            return null;
        }
        return call.set("owner", owner)
                .set("expires", Micros.of(expires))
                .one(rs -> new Lease(run.runId(), rs.getString(1), run.queue(), expires, 1))
                .orElseThrow();
    }

    @Override
    public void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        // the turn, when free; still leased, the holder's complete (or the lease's expiry) makes it due
        tx.call(MAKE_DUE)
                .set("runId", runId)
                .set("queue", queue)
                .set("priority", priority)
                .set("at", Micros.of(at))
                .set("now", Micros.of(now))
                .list(rs -> Micros.read(rs, 1))
                .forEach(tx::wakeAt);
    }

    @Override
    public void endTurn(Tx tx, Lease lease, Instant wakeAt) throws SQLException {
        if (wakeAt == null
                && tx.call(DELETE_LEASED)
                                .set("runId", lease.runId())
                                .set("token", lease.token())
                                .update()
                        > 0) {
            return;
        }
        tx.call(COMPLETE)
                .set("wakeAt", Micros.orNull(wakeAt))
                .set("runId", lease.runId())
                .set("token", lease.token())
                .list(rs -> Micros.read(rs, 1))
                .forEach(tx::wakeAt);
    }

    /** A finished run has no turns. */
    static void delete(Tx tx, String runId) throws SQLException {
        tx.call(DELETE).set("runId", runId).update();
    }

    /**
     * Drops every lease, for a process that has just taken the file: whoever held them is gone.
     *
     * @return how many leases were dropped
     */
    static int clearAllLeases(Tx tx, Instant now) throws SQLException {
        int cleared = tx.call(CLEAR_LEASES).update();
        if (cleared > 0) {
            tx.wakeAt(now);
        }
        return cleared;
    }

    @Override
    public String world() {
        return LocalWorldProvider.NAME;
    }

    @Override
    public String table(String name) {
        return name;
    }

    @Override
    public String lockRow() {
        return "";
    }

    @Override
    public String skipLocked() {
        return "";
    }

    @Override
    public boolean codePointOrder() {
        return true;
    }

    @Override
    public String jsonObjectAgg(String key, String value) {
        return "json_group_object(" + key + ", " + value + ")";
    }

    /** SQLite has no arrays: the texts travel as one JSON array, which {@code json_each} reads as a table. */
    @Override
    public String inTexts(String param) {
        return " IN (SELECT value FROM json_each(" + param + "))";
    }

    @Override
    public Object texts(Collection<String> values) {
        StringBuilder json = new StringBuilder("[");
        for (String value : values) {
            json.append(json.length() == 1 ? "\"" : ",\"");
            value.chars()
                    .forEach(c -> json.append(
                            c == '"' || c == '\\'
                                    ? "\\" + (char) c
                                    : c < 0x20 ? "\\u%04x".formatted(c) : String.valueOf((char) c)));
            json.append('"');
        }
        return json.append(']').toString();
    }

    @Override
    public String newLeaseToken() {
        return "lower(hex(randomblob(16)))";
    }
}
