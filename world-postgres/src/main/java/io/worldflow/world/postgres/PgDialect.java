package io.worldflow.world.postgres;

import io.worldflow.RunStatus;
import io.worldflow.spi.Lease;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.RunFilter;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * PostgreSQL's answers: tables qualified by the configured schema and prefix, a write's run row locked
 * {@code FOR UPDATE}, statuses found through the indexed {@code resting} column, and turns made due or ended by
 * statements that announce them with {@code pg_notify} themselves.
 */
final class PgDialect implements SqlDialect {

    /** The statuses {@code resting} leaves null: a run's work in flight. */
    private static final Set<RunStatus> IN_FLIGHT = EnumSet.of(RunStatus.PENDING, RunStatus.RUNNING);

    private final PgSettings settings;
    private final boolean utf8;
    private final String channel;
    private final Sql makeDue;
    private final Sql removeEnded;
    private final Sql moveEnded;

    /**
     * @param utf8 whether the database stores text as UTF-8, whose byte order (the C collation's) is code point
     *             order
     */
    PgDialect(PgSettings settings, boolean utf8) {
        this.settings = settings;
        this.utf8 = utf8;
        this.channel = settings.channel();
        // A new row; or an unleased row keeps the earlier due time; a leased row records the request for when its
        // lease ends (and, when the lease has lapsed, is also due at once). Announced when the turn is free.
        this.makeDue = Sql.of(tables("""
                WITH due AS (
                    INSERT INTO {tasks} AS t (run_id, queue, priority, available_at, deliveries)
                    VALUES (:runId, :queue, :priority, :at, 0)
                    ON CONFLICT (run_id) DO UPDATE SET
                        requested_at = CASE WHEN t.lease_token IS NULL THEN NULL
                                            ELSE least(t.requested_at, excluded.available_at) END,
                        available_at = CASE WHEN t.lease_token IS NULL OR t.lease_expires <= :now
                                            THEN least(t.available_at, excluded.available_at) ELSE t.available_at END
                    RETURNING t.available_at, (t.lease_token IS NULL OR t.lease_expires <= :now) AS free)
                SELECT available_at, pg_notify(:channel, available_at::text) FROM due WHERE free"""));
        // an ended turn with nothing next and nothing requested meanwhile is gone
        this.removeEnded = Sql.of(
                tables("DELETE FROM {tasks} WHERE run_id = :runId AND lease_token = :token AND requested_at IS NULL"));
        // else it is due at the earlier of the wake time and the turn requested meanwhile
        this.moveEnded = Sql.of(tables("""
                WITH moved AS (
                    UPDATE {tasks} SET available_at = coalesce(least(requested_at, CAST(:wake AS bigint)), available_at),
                        requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL, deliveries = 0
                    WHERE run_id = :runId AND lease_token = :token
                    RETURNING available_at)
                SELECT available_at, pg_notify(:channel, available_at::text) FROM moved"""));
    }

    @Override
    public String world() {
        return PostgresWorldProvider.NAME;
    }

    @Override
    public String table(String name) {
        return quote(settings.schema()) + "." + quote(settings.prefix() + name);
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public String lockRow() {
        return " FOR UPDATE";
    }

    @Override
    public String skipLocked() {
        return " FOR UPDATE SKIP LOCKED";
    }

    @Override
    public boolean codePointOrder() {
        return utf8;
    }

    @Override
    public String jsonObjectAgg(String key, String value) {
        return "json_object_agg(" + key + ", " + value + " ORDER BY " + key + ")::text";
    }

    @Override
    public String inTexts(String param) {
        return " = ANY(CAST(" + param + " AS text[]))";
    }

    @Override
    public Object texts(Collection<String> values) {
        return values.toArray(String[]::new);
    }

    @Override
    public String newLeaseToken() {
        return PgTaskQueue.LEASE_TOKEN;
    }

    /** The signal and its key as data-modifying parts of one {@code WITH}, which returns no rows. */
    @Override
    public Optional<String> storeSignalInBatch() {
        return Optional.of(tables("""
                WITH stored AS (
                    INSERT INTO {signals} (run_id, name, payload_json, payload_type, sent_at)
                    SELECT :runId, :name, :json, CAST(:type AS text), :sentAt
                    WHERE CAST(:key AS text) IS NULL OR NOT EXISTS (
                        SELECT 1 FROM {signal_keys} WHERE run_id = :runId AND key = CAST(:key AS text))
                    RETURNING id)
                INSERT INTO {signal_keys} (run_id, key, signal_id)
                SELECT :runId, CAST(:key AS text), id FROM stored WHERE CAST(:key AS text) IS NOT NULL"""));
    }

    /**
     * A resting status (sleeping, waiting, ended) by {@code resting}, which is indexed; pending and running among
     * the runs in flight ({@code resting IS NULL}, an index range too) by {@code status}, which no index holds so
     * that its changes stay HOT.
     */
    @Override
    public String statusIn(List<RunStatus> statuses, RunFilter filter) {
        String[] resting = names(statuses, true);
        String[] inFlight = names(statuses, false);
        String restingIn = resting.length == 0 ? null : "resting = ANY(" + filter.param(resting) + ")";
        if (inFlight.length == 0) {
            return restingIn;
        }
        String inFlightIn = "resting IS NULL";
        if (inFlight.length < IN_FLIGHT.size()) { // all of them: the range alone
            inFlightIn += " AND status = ANY(" + filter.param(inFlight) + ")";
        }
        return restingIn == null ? inFlightIn : "(" + restingIn + " OR (" + inFlightIn + "))";
    }

    private static String[] names(List<RunStatus> statuses, boolean resting) {
        return statuses.stream()
                .filter(s -> resting != IN_FLIGHT.contains(s))
                .map(RunStatus::name)
                .toArray(String[]::new);
    }

    /** Still leased, the run's turn is made due by the holder's turn end or the lease's expiry. */
    @Override
    public void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        tx.call(makeDue)
                .set("runId", runId)
                .set("queue", queue)
                .set("priority", priority)
                .set("at", Micros.of(at))
                .set("now", Micros.of(now))
                .set("channel", channel)
                .list(rs -> Micros.read(rs, 1))
                .forEach(tx::announced);
    }

    @Override
    public void endTurn(Tx tx, Lease lease, Instant wakeAt) throws SQLException {
        if (wakeAt == null
                && tx.call(removeEnded)
                                .set("runId", lease.runId())
                                .set("token", lease.token())
                                .update()
                        > 0) {
            return;
        }
        tx.call(moveEnded)
                .set("wake", Micros.orNull(wakeAt))
                .set("runId", lease.runId())
                .set("token", lease.token())
                .set("channel", channel)
                .list(rs -> Micros.read(rs, 1))
                .forEach(tx::announced);
    }
}
