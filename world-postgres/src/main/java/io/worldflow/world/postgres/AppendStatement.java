package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.format.LogChain;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.TurnEnd;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.RunRows;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A batch of appends as <b>one self-committing statement</b>, one round trip with its commit, whenever each run
 * appears once in the batch (nearly always). The rules it keeps:
 * <ul>
 *   <li>A statement holds each run at most once. A batch that holds a run more than once (a run's pipelined
 *   appends) is cut into rounds, each run's n-th append in the n-th round, run one after the other in one
 *   transaction, so that the batch still commits once. Each append's result stays its own, as the SPI says: a
 *   later append of a run is checked against the log as the earlier rounds left it, whether or not they went
 *   through. The first round holds every run of the batch, so when it locks several runs it locks them all.</li>
 *   <li>An append goes through when its run's log length is the expected one and the run has not finished:
 *   the projection's update is the check. Everything else the append writes (its events, the signals it
 *   consumes, its turn) is written only for the runs whose update went through.</li>
 *   <li>Several runs are locked first, in run id order, so that batches of different workers touching the same
 *   runs queue up instead of deadlocking (an update's order of rows is the plan's). A single run is not locked
 *   before its update, which takes the lock and re-checks the condition on the newest version when another
 *   transaction changed the row meanwhile: one row version in the WAL, not a lock and then a version.</li>
 *   <li>No row is changed twice by a statement: a finished run's turn is deleted, and an ended turn is either
 *   deleted or made due ({@link #END_TURNS}).</li>
 *   <li>The earliest turn made due is announced on the world's channel and the finished runs are named on the
 *   end channel, from inside the statement, so listeners hear of them when it commits.</li>
 * </ul>
 * Three statements: {@link #oneRun} for a round of one run, {@link #severalRuns} for several, and
 * {@link #severalRunsEndingTurns} for several where a turn ends with its run not finished (a sleep, a wait), the
 * same with the two parts that end turns. Every part of a statement is always there; one with nothing to do
 * matches no row.
 */
final class AppendStatement {

    /** The runs as found, locked first in run id order when there are several ({@code %s}). */
    private static final String CUR = """
            WITH cur (run_id, status, log_length, cancel_requested) AS MATERIALIZED (
                SELECT run_id, status, log_length, cancel_requested FROM {runs} WHERE %s),
            """;
    /**
     * The check and the projection's update: the log's length is the expected one and the run has not finished. The
     * run's head becomes the link of the append's record, computed here over the head the update finds ({@link
     * #headAfter}), and is returned with the record's seq range and text (null for an append without events) for the
     * record's row ({@link #LOGGED}).
     */
    private static final String OK = """
            ok (run_id, cancel_requested, head, seq, last_seq, events) AS (
                UPDATE {runs} AS r SET status = %s, log_length = %s, updated_at = %s, output_json = %s, output_type = %s,
                    error = %s, held = NULL, held_since = NULL, head = %s%s
                WHERE %s AND r.log_length = %s AND r.status NOT IN ('COMPLETED', 'FAILED', 'CANCELED')
                RETURNING r.run_id, r.cancel_requested, r.head, %s),
            """;
    /** The record of each accepted append with events, linked by the head its update made. */
    private static final String LOGGED = """
            logged AS (
                INSERT INTO {event_log} (run_id, seq, last_seq, events, link)
                SELECT run_id, seq, last_seq, events, head FROM ok WHERE events IS NOT NULL
                RETURNING seq),
            """;
    /**
     * Ended turns: one with nothing next and nothing requested meanwhile is deleted ({@code removed}); every other one,
     * the rows that deletion did not return, is due at the earlier of its wake time and the turn requested meanwhile
     * ({@code moved}). Taking what the deletion left, rather than the rows where a turn was requested as the
     * statement's snapshot saw them, keeps a turn requested by a transaction that commits while the statement waits
     * for the run: the deletion re-checks that row and leaves it, and the update makes it due instead of leaving it
     * leased under a lease that ended. {@code %1$s}: where the ended turns come from; {@code %2$s}: which rows.
     */
    private static final String END_TURNS = """
            removed (run_id) AS (
                DELETE FROM {tasks} AS t%1$s WHERE %2$s AND %3$s IS NULL AND t.requested_at IS NULL RETURNING t.run_id),
            moved AS (
                UPDATE {tasks} AS t SET available_at = coalesce(least(t.requested_at, %3$s), t.available_at),
                    requested_at = NULL, lease_token = NULL, lease_owner = NULL, lease_expires = NULL, deliveries = 0%4$s
                WHERE %2$s AND t.run_id NOT IN (SELECT run_id FROM removed) RETURNING t.available_at),
            next AS (SELECT min(available_at) AS earliest FROM moved)
            """;
    /**
     * What every statement selects: each run as found with whether its append went through, the earliest turn made
     * due (announced), and the end channel's notice when an accepted append finished its run (named once: an
     * uncorrelated subquery). {@code %1$s}: the earliest turn; {@code %2$s}: its notice; {@code %3$s}: finishing.
     */
    private static final String RESULT = """
            SELECT cur.run_id, cur.log_length, coalesce(ok.cancel_requested, cur.cancel_requested), cur.status, %1$s,
                   ok.run_id IS NOT NULL, %2$s,
                   (SELECT pg_notify('{end_channel}', :endedPayload) FROM ok WHERE %3$s LIMIT 1)
            FROM cur LEFT JOIN ok ON ok.run_id = cur.run_id""";

    private static final String EARLIEST = "(SELECT earliest FROM next)";
    private static final String ANNOUNCED =
            "(SELECT pg_notify('{channel}', earliest::text) FROM next WHERE earliest IS NOT NULL)";

    /** A round of one run, which its update locks. */
    private final Sql oneRun;
    /** A round of several runs, locked in run id order first, none ending a turn it does not finish. */
    private final Sql severalRuns;
    /** The same where a turn ends with its run not finished. */
    private final Sql severalRunsEndingTurns;
    /** A run's log length and cancel flag now, for a single run refused by a write committed meanwhile. */
    private final Sql current;

    /**
     * Whether each record's link comes with it ({@link EncodedAppend#link}, a keyed chain, whose key the database never
     * sees), rather than being made by the statement.
     */
    private final boolean givenLinks;

    /**
     * @param channel    the world's NOTIFY channel and {@code endChannel} the one of finished runs: plain identifiers
     * @param givenLinks whether the appends come with their records' links ({@link EncodedAppend#withLink})
     */
    AppendStatement(SqlDialect dialect, String channel, String endChannel, boolean givenLinks) {
        this.givenLinks = givenLinks;
        this.oneRun = statement(dialect, oneRunStatement(givenLinks), channel, endChannel);
        this.severalRuns = statement(dialect, severalRunsStatement(false, givenLinks), channel, endChannel);
        this.severalRunsEndingTurns = statement(dialect, severalRunsStatement(true, givenLinks), channel, endChannel);
        this.current = Sql.of(dialect.tables("SELECT log_length, cancel_requested FROM {runs} WHERE run_id = :runId"));
    }

    private static Sql statement(SqlDialect dialect, String sql, String channel, String endChannel) {
        return Sql.of(dialect.tables(sql.replace("{channel}", channel).replace("{end_channel}", endChannel)));
    }

    /**
     * The run's head after an append of the events {@code seq .. lastSeq} whose record is the text {@code events}
     * (null for an append without events, which leaves the head): {@link LogChain#link}, over the row's head or, when
     * it has none, the run's {@link LogChain#genesis}, the record's digest made here too; or the link given
     * ({@code givenLinkHex}, not null) with the append.
     */
    private static String headAfter(String seq, String lastSeq, String events, String givenLinkHex) {
        if (givenLinkHex != null) {
            return "CASE WHEN " + events + " IS NULL THEN r.head ELSE decode(" + givenLinkHex + ", 'hex') END";
        }
        String version = "decode('0" + LogChain.VERSION + "', 'hex')";
        String genesis = version + " || sha256(convert_to('" + LogChain.GENESIS_PREFIX + "' || r.run_id, 'UTF8'))";
        return "CASE WHEN " + events + " IS NULL THEN r.head ELSE " + version + " || sha256(coalesce(r.head, "
                + genesis + ") || int8send(" + seq + ") || int8send(" + lastSeq + ") || sha256(convert_to(" + events
                + ", 'UTF8'))) END";
    }

    /** Whether each run appears once in the batch, which is then one statement, committed on its own. */
    static boolean eachRunOnce(List<EncodedAppend> appends) {
        return appends.stream().map(e -> e.append().runId()).distinct().count() == appends.size();
    }

    /**
     * Runs the batch on {@code tx}: one statement when each run appears once in it ({@link #eachRunOnce}), in
     * autocommit mode; else one per round, in a transaction.
     *
     * @param now the projection's {@code updatedAt} for an append of the status alone (no events)
     */
    List<AppendResult> apply(Tx tx, List<EncodedAppend> appends, Instant now) throws SQLException {
        int n = appends.size();
        int[] roundOf = new int[n];
        int rounds = 1;
        Map<String, Integer> seen = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            roundOf[i] = seen.merge(appends.get(i).append().runId(), 1, Integer::sum) - 1;
            rounds = Math.max(rounds, roundOf[i] + 1);
        }
        if (rounds == 1) {
            return round(tx, appends, now);
        }
        AppendResult[] results = new AppendResult[n];
        for (int r = 0; r < rounds; r++) {
            List<Integer> at = new ArrayList<>();
            List<EncodedAppend> round = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (roundOf[i] == r) {
                    at.add(i);
                    round.add(appends.get(i));
                }
            }
            List<AppendResult> got = round(tx, round, now);
            for (int k = 0; k < at.size(); k++) {
                results[at.get(k)] = got.get(k);
            }
        }
        return List.of(results);
    }

    /** One statement for appends to different runs; one result per append, in order. */
    private List<AppendResult> round(Tx tx, List<EncodedAppend> appends, Instant now) throws SQLException {
        int n = appends.size();
        Map<String, Found> found = new HashMap<>(n * 2);
        Long earliest = null;
        AppendColumns columns = n == 1 ? null : new AppendColumns(appends, now, givenLinks);
        Sql statement = columns == null ? oneRun : columns.endsTurns() ? severalRunsEndingTurns : severalRuns;
        try (Sql.Call call = tx.call(statement)) {
            if (columns == null) {
                bindOne(call, appends.getFirst(), now);
            } else {
                columns.bind(call);
            }
            try (ResultSet rs = call.query()) {
                while (rs.next()) {
                    String runId = rs.getString(1);
                    found.put(
                            runId,
                            new Found(
                                    rs.getLong(2),
                                    rs.getBoolean(3),
                                    rs.getBoolean(6),
                                    RunRows.status(PostgresWorldProvider.NAME, rs.getString(4), runId)
                                            .isTerminal()));
                    long e = rs.getLong(5);
                    earliest = rs.wasNull() ? earliest : Long.valueOf(e);
                }
            }
        }
        if (earliest != null) {
            tx.announced(Micros.toInstant(earliest));
        }
        List<AppendResult> results = new ArrayList<>(n);
        for (EncodedAppend encoded : appends) {
            Append a = encoded.append();
            Found state = found.get(a.runId());
            if (state == null) {
                results.add(AppendResult.missing());
            } else if (state.appended()) {
                results.add(new AppendResult(true, a.nextSeq(), state.cancelRequested()));
            } else if (n == 1 && state.logLength() == a.expectedSeq() && !state.finished()) {
                // refused because of an append that committed after this statement's snapshot, which is
                // what the unlocked read of a single run found: the length that made it conflict is newer
                results.add(current(tx, a.runId()));
            } else {
                results.add(new AppendResult(false, state.logLength(), state.cancelRequested()));
            }
        }
        return results;
    }

    /** A run as the statement found it, and whether its append went through. */
    private record Found(long logLength, boolean cancelRequested, boolean appended, boolean finished) {}

    /** Binds the one append of a round to {@link #oneRun}. */
    private void bindOne(Sql.Call call, EncodedAppend encoded, Instant now) throws SQLException {
        if (givenLinks) {
            call.set("link", LogChain.hex(encoded.link()));
        }
        Append a = encoded.append();
        Payload output = a.output();
        boolean finished = a.status().isTerminal();
        TurnEnd end = finished ? null : a.turnEnd();
        call.set("runId", a.runId())
                .set("expected", a.expectedSeq())
                .set("status", a.status().name())
                .set("length", a.nextSeq())
                .set("updatedAt", AppendColumns.updatedAt(a, now))
                .set("output", output == null ? null : output.json())
                .set("outputType", output == null ? null : output.type())
                .set("error", encoded.error())
                .set("events", encoded.events())
                .set("lastSeq", a.nextSeq() - 1)
                .set("signals", a.consumedSignals().toArray(Long[]::new))
                .set("finished", finished)
                .set("endedPayload", finished ? AppendColumns.endedPayload(Set.of(a.runId())) : "")
                .set("token", end == null ? null : end.lease().token())
                .set("wake", end == null ? null : Micros.orNull(end.wakeAt()));
    }

    /** The run's state now, for an append refused. */
    private AppendResult current(Tx tx, String runId) throws SQLException {
        return tx.call(current)
                .set("runId", runId)
                .one(rs -> new AppendResult(false, rs.getLong(1), rs.getBoolean(2)))
                .orElseGet(AppendResult::missing);
    }

    /**
     * One run, with its values as plain parameters: the run as found ({@code cur}, not locked), its projection
     * updated where the check holds ({@code ok}), and only then its events inserted ({@code logged}), the
     * signals it consumed deleted ({@code consumed}), its turn deleted when it finished ({@code done}), and its
     * ended turn removed or made due. Plain parameters let the server keep one plan for every call, where arrays
     * would have it plan each call anew.
     */
    private static String oneRunStatement(boolean givenLinks) {
        String accepted = "t.run_id IN (SELECT run_id FROM ok)";
        return CUR.formatted("run_id = :runId")
                + OK.formatted(
                        ":status",
                        ":length",
                        ":updatedAt",
                        ":output",
                        ":outputType",
                        ":error",
                        headAfter(
                                "CAST(:expected AS bigint)",
                                "CAST(:lastSeq AS bigint)",
                                "CAST(:events AS text)",
                                givenLinks ? "CAST(:link AS text)" : null),
                        "",
                        "r.run_id = :runId",
                        ":expected",
                        "CAST(:expected AS bigint), CAST(:lastSeq AS bigint), CAST(:events AS text)")
                + LOGGED
                + """
                consumed AS (
                    DELETE FROM {signals} WHERE run_id IN (SELECT run_id FROM ok) AND id = ANY(CAST(:signals AS bigint[]))
                    RETURNING id),
                done AS (DELETE FROM {tasks} AS t WHERE %s AND :finished RETURNING t.run_id),
                """.formatted(accepted)
                + END_TURNS.formatted("", accepted + " AND t.lease_token = :token", "CAST(:wake AS bigint)", "")
                + RESULT.formatted(EARLIEST, ANNOUNCED, ":finished");
    }

    /**
     * Several runs, their values as arrays read with {@code unnest}: the same parts as {@link #oneRunStatement},
     * but {@code cur} locks the runs first, in run id order, and the update takes only rows that cur locked.
     *
     * @param endingTurns with the parts that end turns, which cost a batch without such turns some time even when
     *                    they match nothing
     */
    private static String severalRunsStatement(boolean endingTurns, boolean givenLinks) {
        String ids = "CAST(:ids AS text[])";
        String finishing = "run_id = ANY(CAST(:finished AS text[]))";
        String ends = "unnest(CAST(:endRun AS text[]), CAST(:endToken AS text[]), CAST(:endWake AS bigint[]))"
                + " AS i (run_id, token, wake_at)";
        // the ids also as a condition of their own: runs is read through its key, not scanned for the join
        return CUR.formatted("run_id = ANY(" + ids + ") ORDER BY run_id FOR UPDATE")
                + OK.formatted(
                        "pr.status",
                        "pr.log_length",
                        "pr.updated_at",
                        "pr.output_json",
                        "pr.output_type",
                        "pr.error",
                        headAfter("pr.expected", "pr.log_length - 1", "pr.events", givenLinks ? "pr.link" : null),
                        """

                    FROM unnest(%s, CAST(:expected AS bigint[]), CAST(:prStatus AS text[]), CAST(:prLength AS bigint[]),
                                CAST(:prUpdated AS bigint[]), CAST(:prOutput AS text[]), CAST(:prOutputType AS text[]),
                                CAST(:prError AS text[]), CAST(:prEvents AS text[])%s)
                         AS pr (run_id, expected, status, log_length, updated_at, output_json, output_type, error,
                                events%s)""".formatted(ids, givenLinks ? ", CAST(:prLink AS text[])" : "", givenLinks ? ", link" : ""),
                        "r.run_id = ANY(" + ids + ") AND r.run_id = pr.run_id AND r.run_id IN (SELECT run_id FROM cur)",
                        "pr.expected",
                        "pr.expected, pr.log_length - 1, pr.events")
                + LOGGED
                + """
                consumed AS (
                    DELETE FROM {signals} AS s USING unnest(CAST(:sigId AS bigint[]), CAST(:sigRun AS text[])) AS cs (id, run_id)
                    WHERE s.id = cs.id AND s.run_id = cs.run_id AND cs.run_id IN (SELECT run_id FROM ok)
                    RETURNING s.id),
                done AS (
                    DELETE FROM {tasks} WHERE run_id IN (SELECT run_id FROM ok WHERE %s)
                    RETURNING run_id)%s
                """.formatted(finishing, endingTurns ? "," : "")
                + (endingTurns
                        ? END_TURNS.formatted(
                                " USING " + ends,
                                "t.run_id = i.run_id AND t.lease_token = i.token"
                                        + " AND i.run_id IN (SELECT run_id FROM ok)",
                                "i.wake_at",
                                " FROM " + ends)
                        : "")
                + RESULT.formatted(
                        endingTurns ? EARLIEST : "NULL::bigint", endingTurns ? ANNOUNCED : "NULL", finishing);
    }
}
