package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import org.jooq.Field;
import org.jooq.Table;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.deleteFrom;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.insertInto;
import static org.jooq.impl.DSL.least;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.update;
import static org.jooq.impl.DSL.with;

/**
 * A batch of appends, written by <b>self-committing statements</b>: one round trip, commit included, for the
 * usual batch. The rules it keeps:
 * <ul>
 *   <li>A statement holds each run at most once. A batch that holds a run more than once (consecutive appends
 *   of one run) is cut into rounds, each run's n-th append in the n-th round, and the rounds run one after the
 *   other. Each append's result stays its own, as the SPI says: a later append of a run is checked against
 *   the log as the earlier rounds left it, whether or not they went through.</li>
 *   <li>An append goes through when its run's log length is the expected one and the run has not finished:
 *   the projection's update is the check. Everything else the append writes (its events, the signals it
 *   consumes, its turn) is written only for the runs whose update went through.</li>
 *   <li>Several runs are locked first, in run id order, so that batches of different workers touching the same
 *   runs queue up instead of deadlocking (an update's order of rows is the plan's). A single run is not locked
 *   before its update, which takes the lock and re-checks the condition on the newest version when another
 *   transaction changed the row meanwhile: one row version in the WAL, not a lock and then a version.</li>
 *   <li>No row is changed twice by a statement: a finished run's turn is deleted; a turn that ends with nothing
 *   next and nothing requested meanwhile is deleted; every other ended turn (the rows that deletion did not
 *   return) is due at the earlier of its wake time and the turn requested meanwhile.</li>
 *   <li>The earliest turn made due is announced on the world's channel and the finished runs are named on the
 *   end channel, from inside the statement, so listeners hear of them when it commits.</li>
 * </ul>
 * Two statements, the same but for the lock: {@link #oneRun} and {@link #severalRuns}. Every part is always
 * there; a part with nothing to do gets empty arrays, which cost next to nothing.
 */
final class AppendStatement {

    /** Under PostgreSQL's 8,000-byte NOTIFY payload limit. */
    private static final int MAX_PAYLOAD_BYTES = 7_900;

    private final Tables tables;
    private final String channel;
    private final String endChannel;
    /** A round of one run, which its update locks. */
    private final Sql oneRun;
    /** A round of several runs, locked in run id order first. */
    private final Sql severalRuns;
    /** A run's log length and cancel flag now, for a single run refused by a write committed meanwhile. */
    private final Sql current;

    AppendStatement(Tables tables, String channel, String endChannel) {
        this.tables = tables;
        this.channel = channel;
        this.endChannel = endChannel;
        this.oneRun = build(false);
        this.severalRuns = build(true);
        this.current = Sql.of(select(tables.runs.logLength, tables.runs.cancelRequested).from(tables.runs.table)
                .where(tables.runs.runId.eq(param("runId", String.class))));
    }

    /**
     * Runs the batch on {@code tx} in autocommit mode: one statement when each run appears once in it, else
     * one per round.
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
        Map<String, long[]> found = new HashMap<>(n * 2);
        Long earliest = null;
        try (Sql.Call call = tx.call(n == 1 ? oneRun : severalRuns)) {
            new Columns(appends, now).bind(call);
            call.set("channel", channel);
            try (ResultSet rs = call.query()) {
                while (rs.next()) {
                    String runId = rs.getString(1);
                    boolean terminal = RunRows.status(rs.getString(4), runId).isTerminal();
                    found.put(runId, new long[]{rs.getLong(2), rs.getBoolean(3) ? 1 : 0, rs.getBoolean(6) ? 1 : 0,
                            terminal ? 1 : 0});
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
            long[] state = found.get(a.runId());
            if (state == null) {
                results.add(AppendResult.missing());
            } else if (state[2] == 1) {
                results.add(new AppendResult(true, a.nextSeq(), state[1] == 1));
            } else if (n == 1 && state[0] == a.expectedSeq() && state[3] == 0) {
                // refused because of an append that committed after this statement's snapshot, which is
                // what the unlocked read of a single run found: the length that made it conflict is newer
                results.add(current(tx, a.runId()));
            } else {
                results.add(new AppendResult(false, state[0], state[1] == 1));
            }
        }
        return results;
    }

    /** The run's state now, for an append refused. */
    private AppendResult current(Tx tx, String runId) throws SQLException {
        try (Sql.Call call = tx.call(current).set("runId", runId); ResultSet rs = call.query()) {
            return rs.next() ? new AppendResult(false, rs.getLong(1), rs.getBoolean(2)) : AppendResult.missing();
        }
    }

    /**
     * The statement: the runs as found ({@code cur}), the projections updated where the check holds
     * ({@code ok}), and for those runs only the events inserted ({@code logged}), the signals consumed
     * ({@code consumed}), a finished run's turn deleted ({@code done}), an ended turn deleted when nothing
     * comes next ({@code removed}) or else made due ({@code moved}); it selects each run as found, whether its
     * append went through, the earliest turn made due, and calls the two {@code pg_notify}s.
     *
     * @param lockFirst whether {@code cur} locks the runs (in run id order) before the update
     */
    private Sql build(boolean lockFirst) {
        Tables.Runs r = tables.runs;
        Tables.Tasks t = tables.tasks;
        Tables.Log l = tables.log;
        Tables.Signals sg = tables.signals;
        Field<String> okId = field(name("ok", "run_id"), String.class);
        var accepted = select(okId).from(name("ok"));

        var found = select(r.runId, r.status, r.logLength, r.cancelRequested).from(r.table)
                .where(r.runId.eq(any(param("ids", String[].class))));
        var cur = name("cur").fields("run_id", "status", "log_length", "cancel_requested")
                .asMaterialized(lockFirst ? found.orderBy(r.runId).forUpdate() : found);

        Table<?> pr = table("unnest({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7})", param("ids", String[].class),
                param("expected", Long[].class), param("prStatus", String[].class), param("prLength", Long[].class),
                param("prUpdated", Long[].class), param("prOutput", String[].class),
                param("prOutputType", String[].class), param("prError", String[].class))
                .as("pr", "run_id", "expected", "status", "log_length", "updated_at", "output_json", "output_type",
                        "error");
        var ok = name("ok").fields("run_id", "cancel_requested").as(update(r.table)
                .set(r.status, field(name("pr", "status"), String.class))
                .set(r.logLength, field(name("pr", "log_length"), Long.class))
                .set(r.updatedAt, field(name("pr", "updated_at"), Long.class))
                .set(r.outputJson, field(name("pr", "output_json"), String.class))
                .set(r.outputType, field(name("pr", "output_type"), String.class))
                .set(r.error, field(name("pr", "error"), String.class))
                .set(r.held, inline((String) null))
                .set(r.heldSince, inline((Long) null))
                .from(pr)
                // the ids also as a condition of their own: runs is read through its key, not scanned for the join
                .where(r.runId.eq(any(param("ids", String[].class)))
                        .and(r.runId.eq(field(name("pr", "run_id"), String.class)))
                        .and(r.logLength.eq(field(name("pr", "expected"), Long.class)))
                        .and(r.status.notIn(inline(RunStatus.COMPLETED.name()), inline(RunStatus.FAILED.name()),
                                inline(RunStatus.CANCELED.name())))
                        // only rows that cur locked, which makes cur lock them first
                        .and(lockFirst ? r.runId.in(select(field(name("cur", "run_id"), String.class)).from(name("cur")))
                                : noCondition()))
                .returningResult(r.runId, r.cancelRequested));

        Table<?> lg = table("unnest({0}, {1}, {2}, {3})", param("logRun", String[].class), param("logSeq", Long[].class),
                param("logLast", Long[].class), param("logEvents", String[].class))
                .as("lg", "run_id", "seq", "last_seq", "events");
        Field<String> lgRun = field(name("lg", "run_id"), String.class);
        var logged = name("logged").as(insertInto(l.table, l.runId, l.seq, l.lastSeq, l.events)
                .select(select(lgRun, field(name("lg", "seq"), Long.class), field(name("lg", "last_seq"), Long.class),
                        field(name("lg", "events"), String.class)).from(lg)
                        .where(lgRun.in(accepted)))
                .returningResult(l.seq));

        Table<?> cs = table("unnest({0}, {1})", param("sigId", Long[].class), param("sigRun", String[].class))
                .as("cs", "id", "run_id");
        Field<String> csRun = field(name("cs", "run_id"), String.class);
        var consumed = name("consumed").as(deleteFrom(sg.table).using(cs)
                .where(sg.id.eq(field(name("cs", "id"), Long.class)).and(sg.runId.eq(csRun))
                        .and(csRun.in(accepted)))
                .returningResult(sg.id));

        // the accepted appends among the finishing ones, then each one's turn by its key: the list of finishing
        // runs stays out of the key lookup, where the server would sort it again for every row
        var done = name("done").as(deleteFrom(t.table)
                .where(t.runId.in(select(okId).from(name("ok")).where(okId.eq(any(param("finished", String[].class))))))
                .returningResult(t.runId));

        Table<?> ends = table("unnest({0}, {1}, {2})", param("endRun", String[].class),
                param("endToken", String[].class), param("endWake", Long[].class)).as("i", "run_id", "token", "wake_at");
        Field<String> endRun = field(name("i", "run_id"), String.class);
        Field<Long> endWake = field(name("i", "wake_at"), Long.class);
        var ended = t.runId.eq(endRun).and(t.leaseToken.eq(field(name("i", "token"), String.class)))
                .and(endRun.in(accepted));
        // Nothing next and nothing requested meanwhile: the turn is gone. A turn requested by a transaction that
        // commits while this statement runs is seen when the delete re-checks the row, which it then leaves to
        // moved: moved takes every ended turn that this part did not return.
        var removed = name("removed").fields("run_id").as(deleteFrom(t.table).using(ends)
                .where(ended.and(endWake.isNull()).and(t.requestedAt.isNull()))
                .returningResult(t.runId));
        var moved = name("moved").as(update(t.table)
                .set(t.availableAt, coalesce(least(t.requestedAt, endWake), t.availableAt))
                .set(t.requestedAt, castNull(Long.class))
                .set(t.leaseToken, castNull(String.class))
                .set(t.leaseOwner, castNull(String.class))
                .set(t.leaseExpires, castNull(Long.class))
                .set(t.deliveries, inline(0))
                .from(ends)
                .where(ended.and(endRun.notIn(select(field(name("removed", "run_id"), String.class))
                        .from(name("removed")))))
                .returningResult(t.availableAt));
        Field<Long> earliest = field(name("next", "earliest"), Long.class);
        var next = name("next").as(select(min(field(name("moved", "available_at"), Long.class)).as("earliest"))
                .from(name("moved")));

        Field<Boolean> okCancel = field(name("ok", "cancel_requested"), Boolean.class);
        return Sql.of(with(cur, ok, logged, consumed, done, removed, moved, next)
                .select(field(name("cur", "run_id")), field(name("cur", "log_length")),
                        coalesce(okCancel, field(name("cur", "cancel_requested"), Boolean.class)),
                        field(name("cur", "status")),
                        field(select(earliest).from(name("next"))),
                        okId.isNotNull(),
                        field(select(TaskRows.announce(earliest)).from(name("next")).where(earliest.isNotNull())),
                        // named once (an uncorrelated subquery), when one of the finishing appends went through
                        field(select(Database.endNotice(endChannel)).from(name("ok"))
                                .where(okId.eq(any(param("finished", String[].class)))).limit(inline(1))))
                .from(name("cur"))
                .leftJoin(name("ok")).on(okId.eq(field(name("cur", "run_id"), String.class))));
    }

    /**
     * The NOTIFY payload naming the finished runs, one per line (run ids hold no control characters), or
     * {@code "*"} ("some runs ended") when the list would pass PostgreSQL's payload limit.
     */
    static String endedPayload(Set<String> finished) {
        String joined = String.join("\n", finished);
        return joined.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES ? joined : "*";
    }

    /** A round's appends (each run once) column by column, as the statement's arrays. */
    private static final class Columns {
        /** The check and the projection after each append, in the appends' order. */
        final String[] ids;
        final Long[] expected;
        final String[] statuses;
        final Long[] lengths;
        final Long[] updated;
        final String[] outputs;
        final String[] outputTypes;
        final String[] errors;
        /** A log row per append with events. */
        final List<String> logRun = new ArrayList<>();
        final List<Long> logSeq = new ArrayList<>();
        final List<Long> logLast = new ArrayList<>();
        final List<String> logEvents = new ArrayList<>();
        final List<Long> signalIds = new ArrayList<>();
        final List<String> signalRuns = new ArrayList<>();
        final Set<String> finished = new LinkedHashSet<>();
        /** The turns that end with the run not finished. */
        final List<String> endRuns = new ArrayList<>();
        final List<String> endTokens = new ArrayList<>();
        final List<Long> endWakes = new ArrayList<>();

        Columns(List<EncodedAppend> appends, Instant now) {
            int n = appends.size();
            ids = new String[n];
            expected = new Long[n];
            statuses = new String[n];
            lengths = new Long[n];
            updated = new Long[n];
            outputs = new String[n];
            outputTypes = new String[n];
            errors = new String[n];
            for (int i = 0; i < n; i++) {
                EncodedAppend encoded = appends.get(i);
                Append a = encoded.append();
                Payload output = a.output();
                ids[i] = a.runId();
                expected[i] = a.expectedSeq();
                statuses[i] = a.status().name();
                lengths[i] = a.nextSeq();
                updated[i] = Micros.of(a.events().isEmpty() ? now : a.lastAt());
                outputs[i] = output == null ? null : output.json();
                outputTypes[i] = output == null ? null : output.type();
                errors[i] = encoded.error();
                if (encoded.events() != null) {
                    logRun.add(a.runId());
                    logSeq.add(a.expectedSeq());
                    logLast.add(a.nextSeq() - 1);
                    logEvents.add(encoded.events());
                }
                for (Long id : a.consumedSignals()) {
                    signalIds.add(id);
                    signalRuns.add(a.runId());
                }
                if (a.status().isTerminal()) {
                    finished.add(a.runId());
                } else if (a.turnEnd() != null) {
                    endRuns.add(a.runId());
                    endTokens.add(a.turnEnd().lease().token());
                    endWakes.add(Micros.orNull(a.turnEnd().wakeAt()));
                }
            }
        }

        void bind(Sql.Call call) throws SQLException {
            call.set("ids", ids).set("expected", expected).set("prStatus", statuses).set("prLength", lengths)
                    .set("prUpdated", updated).set("prOutput", outputs).set("prOutputType", outputTypes)
                    .set("prError", errors);
            call.set("logRun", logRun.toArray(String[]::new)).set("logSeq", logSeq.toArray(Long[]::new))
                    .set("logLast", logLast.toArray(Long[]::new)).set("logEvents", logEvents.toArray(String[]::new));
            call.set("sigId", signalIds.toArray(Long[]::new)).set("sigRun", signalRuns.toArray(String[]::new));
            call.set("finished", finished.toArray(String[]::new)).set("endedPayload", endedPayload(finished));
            call.set("endRun", endRuns.toArray(String[]::new)).set("endToken", endTokens.toArray(String[]::new))
                    .set("endWake", endWakes.toArray(Long[]::new));
        }
    }
}
