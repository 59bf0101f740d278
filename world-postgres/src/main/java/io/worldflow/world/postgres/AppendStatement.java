package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.TurnEnd;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.Select;
import org.jooq.Table;
import org.jooq.UpdateSetMoreStep;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.condition;
import static org.jooq.impl.DSL.deleteFrom;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.insertInto;
import static org.jooq.impl.DSL.least;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.update;
import static org.jooq.impl.DSL.with;

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
 *   <li>No row is changed twice by a statement: a finished run's turn is deleted; a turn that ends with nothing
 *   next and nothing requested meanwhile is deleted; every other ended turn, the rows that deletion did not
 *   return, is due at the earlier of its wake time and the turn requested meanwhile. Taking what the deletion
 *   left, rather than the rows where a turn was requested as the statement's snapshot saw them, keeps a turn
 *   requested by a transaction that commits while the statement waits for the run: the deletion re-checks that
 *   row and leaves it, and the update makes it due instead of leaving it leased under a lease that ended.</li>
 *   <li>The earliest turn made due is announced on the world's channel and the finished runs are named on the
 *   end channel, from inside the statement, so listeners hear of them when it commits.</li>
 * </ul>
 * Three statements: {@link #oneRun} for a round of one run, {@link #severalRuns} for several, and
 * {@link #severalRunsEndingTurns} for several where a turn ends with its run not finished (a sleep, a wait), the
 * same with the two parts that end turns. Every part of a statement is always there; one with nothing to do
 * matches no row.
 */
final class AppendStatement {

    private static final Field<String> OK_ID = field(name("ok", "run_id"), String.class);
    /** The runs whose update went through: only for them does anything else change. */
    private static final Select<Record1<String>> ACCEPTED = select(OK_ID).from(name("ok"));
    /** The ended turns that were deleted, which are not also updated. */
    private static final Select<Record1<String>> REMOVED = select(field(name("removed", "run_id"), String.class))
            .from(name("removed"));

    private final Tables tables;
    private final String channel;
    private final String endChannel;
    /** A round of one run, which its update locks. */
    private final Sql oneRun;
    /** A round of several runs, locked in run id order first, none ending a turn it does not finish. */
    private final Sql severalRuns;
    /** The same where a turn ends with its run not finished. */
    private final Sql severalRunsEndingTurns;
    /** A run's log length and cancel flag now, for a single run refused by a write committed meanwhile. */
    private final Sql current;

    AppendStatement(Tables tables, String channel, String endChannel) {
        this.tables = tables;
        this.channel = channel;
        this.endChannel = endChannel;
        this.oneRun = oneRunStatement();
        this.severalRuns = severalRunsStatement(false);
        this.severalRunsEndingTurns = severalRunsStatement(true);
        this.current = Sql.of(select(tables.runs.logLength, tables.runs.cancelRequested).from(tables.runs.table)
                .where(tables.runs.runId.eq(param("runId", String.class))));
    }

    /** Whether each run appears once in the batch, which is then one statement, committed on its own. */
    static boolean eachRunOnce(List<EncodedAppend> appends) {
        Set<String> runs = new HashSet<>(appends.size() * 2);
        for (EncodedAppend e : appends) {
            if (!runs.add(e.append().runId())) {
                return false;
            }
        }
        return true;
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
        AppendColumns columns = n == 1 ? null : new AppendColumns(appends, now);
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
                    found.put(runId, new Found(rs.getLong(2), rs.getBoolean(3), rs.getBoolean(6),
                            RunRows.status(rs.getString(4), runId).isTerminal()));
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
    private record Found(long logLength, boolean cancelRequested, boolean appended, boolean finished) {
    }

    /** Binds the one append of a round to {@link #oneRun}. */
    private static void bindOne(Sql.Call call, EncodedAppend encoded, Instant now) throws SQLException {
        Append a = encoded.append();
        Payload output = a.output();
        boolean finished = a.status().isTerminal();
        TurnEnd end = finished ? null : a.turnEnd();
        call.set("runId", a.runId()).set("expected", a.expectedSeq()).set("status", a.status().name())
                .set("length", a.nextSeq()).set("updatedAt", AppendColumns.updatedAt(a, now))
                .set("output", output == null ? null : output.json())
                .set("outputType", output == null ? null : output.type()).set("error", encoded.error())
                .set("events", encoded.events()).set("lastSeq", a.nextSeq() - 1)
                .set("signals", a.consumedSignals().toArray(Long[]::new))
                .set("finished", finished).set("endedPayload", finished ? AppendColumns.endedPayload(Set.of(a.runId())) : "")
                .set("token", end == null ? null : end.lease().token())
                .set("wake", end == null ? null : Micros.orNull(end.wakeAt()));
    }

    /** The run's state now, for an append refused. */
    private AppendResult current(Tx tx, String runId) throws SQLException {
        try (Sql.Call call = tx.call(current).set("runId", runId); ResultSet rs = call.query()) {
            return rs.next() ? new AppendResult(false, rs.getLong(1), rs.getBoolean(2)) : AppendResult.missing();
        }
    }

    /**
     * One run, with its values as plain parameters: the run as found ({@code cur}, not locked), its projection
     * updated where the check holds ({@code ok}), and only then its events inserted ({@code logged}), the
     * signals it consumed deleted ({@code consumed}), its turn deleted when it finished ({@code done}), its
     * ended turn deleted when nothing comes next ({@code removed}) or else made due ({@code moved}). Plain
     * parameters let the server keep one plan for every call, where arrays would have it plan each call anew.
     */
    private Sql oneRunStatement() {
        Tables.Runs r = tables.runs;
        Tables.Tasks t = tables.tasks;
        Tables.Log l = tables.log;
        Field<String> runId = param("runId", String.class);
        Field<String> events = param("events", String.class);
        Field<Long> wake = param("wake", Long.class);
        Field<Boolean> finished = param("finished", Boolean.class);

        var cur = name("cur").fields("run_id", "status", "log_length", "cancel_requested").asMaterialized(
                select(r.runId, r.status, r.logLength, r.cancelRequested).from(r.table).where(r.runId.eq(runId)));
        var ok = name("ok").fields("run_id", "cancel_requested").as(updateProjection(param("status", String.class),
                param("length", Long.class), param("updatedAt", Long.class), param("output", String.class),
                param("outputType", String.class), param("error", String.class))
                .where(r.runId.eq(runId).and(r.logLength.eq(param("expected", Long.class))).and(notFinished()))
                .returningResult(r.runId, r.cancelRequested));
        var logged = name("logged").as(insertInto(l.table, l.runId, l.seq, l.lastSeq, l.events)
                .select(select(OK_ID, param("expected", Long.class), param("lastSeq", Long.class), events)
                        .from(name("ok")).where(events.isNotNull()))
                .returningResult(l.seq));
        var consumed = name("consumed").as(deleteFrom(tables.signals.table)
                .where(tables.signals.runId.in(ACCEPTED).and(tables.signals.id.eq(any(param("signals", Long[].class)))))
                .returningResult(tables.signals.id));
        var done = name("done").as(deleteFrom(t.table)
                .where(t.runId.in(ACCEPTED).and(condition(finished)))
                .returningResult(t.runId));
        var removed = name("removed").fields("run_id").as(deleteFrom(t.table)
                .where(t.runId.in(ACCEPTED).and(t.leaseToken.eq(param("token", String.class)))
                        .and(wake.isNull()).and(t.requestedAt.isNull()))
                .returningResult(t.runId));
        var moved = name("moved").as(endTurn(wake)
                .where(t.runId.in(ACCEPTED).and(t.leaseToken.eq(param("token", String.class)))
                        .and(t.runId.notIn(REMOVED)))
                .returningResult(t.availableAt));
        return result(List.of(cur, ok, logged, consumed, done, removed, moved), condition(finished), true);
    }

    /**
     * Several runs, their values as arrays read with {@code unnest}: the same parts as {@link #oneRunStatement},
     * but {@code cur} locks the runs first, in run id order, and the update takes only rows that cur locked.
     *
     * @param endingTurns with {@code removed} and {@code moved}, which cost a batch without such turns some time
     *                    even when they match nothing
     */
    private Sql severalRunsStatement(boolean endingTurns) {
        Tables.Runs r = tables.runs;
        Tables.Tasks t = tables.tasks;
        Tables.Log l = tables.log;
        Tables.Signals sg = tables.signals;
        Field<String[]> ids = param("ids", String[].class);
        Field<String[]> finished = param("finished", String[].class);

        var cur = name("cur").fields("run_id", "status", "log_length", "cancel_requested").asMaterialized(
                select(r.runId, r.status, r.logLength, r.cancelRequested).from(r.table).where(r.runId.eq(any(ids)))
                        .orderBy(r.runId).forUpdate());
        Table<?> pr = table("unnest({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7})", ids, param("expected", Long[].class),
                param("prStatus", String[].class), param("prLength", Long[].class), param("prUpdated", Long[].class),
                param("prOutput", String[].class), param("prOutputType", String[].class),
                param("prError", String[].class))
                .as("pr", "run_id", "expected", "status", "log_length", "updated_at", "output_json", "output_type",
                        "error");
        var ok = name("ok").fields("run_id", "cancel_requested").as(updateProjection(
                field(name("pr", "status"), String.class), field(name("pr", "log_length"), Long.class),
                field(name("pr", "updated_at"), Long.class), field(name("pr", "output_json"), String.class),
                field(name("pr", "output_type"), String.class), field(name("pr", "error"), String.class))
                .from(pr)
                // the ids also as a condition of their own: runs is read through its key, not scanned for the join
                .where(r.runId.eq(any(ids))
                        .and(r.runId.eq(field(name("pr", "run_id"), String.class)))
                        .and(r.logLength.eq(field(name("pr", "expected"), Long.class)))
                        .and(notFinished())
                        .and(r.runId.in(select(field(name("cur", "run_id"), String.class)).from(name("cur")))))
                .returningResult(r.runId, r.cancelRequested));

        Table<?> lg = table("unnest({0}, {1}, {2}, {3})", param("logRun", String[].class), param("logSeq", Long[].class),
                param("logLast", Long[].class), param("logEvents", String[].class))
                .as("lg", "run_id", "seq", "last_seq", "events");
        Field<String> lgRun = field(name("lg", "run_id"), String.class);
        var logged = name("logged").as(insertInto(l.table, l.runId, l.seq, l.lastSeq, l.events)
                .select(select(lgRun, field(name("lg", "seq"), Long.class), field(name("lg", "last_seq"), Long.class),
                        field(name("lg", "events"), String.class)).from(lg).where(lgRun.in(ACCEPTED)))
                .returningResult(l.seq));

        Table<?> cs = table("unnest({0}, {1})", param("sigId", Long[].class), param("sigRun", String[].class))
                .as("cs", "id", "run_id");
        Field<String> csRun = field(name("cs", "run_id"), String.class);
        var consumed = name("consumed").as(deleteFrom(sg.table).using(cs)
                .where(sg.id.eq(field(name("cs", "id"), Long.class)).and(sg.runId.eq(csRun)).and(csRun.in(ACCEPTED)))
                .returningResult(sg.id));

        // the accepted appends among the finishing ones, then each one's turn by its key: the list of finishing
        // runs stays out of the key lookup, where the server would sort it again for every row
        var done = name("done").as(deleteFrom(t.table)
                .where(t.runId.in(select(OK_ID).from(name("ok")).where(OK_ID.eq(any(finished)))))
                .returningResult(t.runId));
        if (!endingTurns) {
            return result(List.of(cur, ok, logged, consumed, done), OK_ID.eq(any(finished)), false);
        }

        Table<?> ends = table("unnest({0}, {1}, {2})", param("endRun", String[].class),
                param("endToken", String[].class), param("endWake", Long[].class)).as("i", "run_id", "token", "wake_at");
        Field<String> endRun = field(name("i", "run_id"), String.class);
        Field<Long> endWake = field(name("i", "wake_at"), Long.class);
        var ended = t.runId.eq(endRun).and(t.leaseToken.eq(field(name("i", "token"), String.class)))
                .and(endRun.in(ACCEPTED));
        var removed = name("removed").fields("run_id").as(deleteFrom(t.table).using(ends)
                .where(ended.and(endWake.isNull()).and(t.requestedAt.isNull()))
                .returningResult(t.runId));
        var moved = name("moved").as(endTurn(endWake).from(ends)
                .where(ended.and(t.runId.notIn(REMOVED)))
                .returningResult(t.availableAt));
        return result(List.of(cur, ok, logged, consumed, done, removed, moved), OK_ID.eq(any(finished)), true);
    }

    /** {@code UPDATE runs SET} the projection to these values, clearing a hold. */
    private UpdateSetMoreStep<Record> updateProjection(Field<String> status, Field<Long> length, Field<Long> updatedAt,
                                                       Field<String> output, Field<String> outputType,
                                                       Field<String> error) {
        Tables.Runs r = tables.runs;
        return update(r.table)
                .set(r.status, status)
                .set(r.logLength, length)
                .set(r.updatedAt, updatedAt)
                .set(r.outputJson, output)
                .set(r.outputType, outputType)
                .set(r.error, error)
                .set(r.held, inline((String) null))
                .set(r.heldSince, inline((Long) null));
    }

    /** A run not finished: the check besides the log's length. */
    private Condition notFinished() {
        return tables.runs.status.notIn(inline(RunStatus.COMPLETED.name()), inline(RunStatus.FAILED.name()),
                inline(RunStatus.CANCELED.name()));
    }

    /**
     * {@code UPDATE tasks SET} the turn ended: due at the earlier of {@code wake} and the turn requested during
     * the lease (the row's own due time when neither), no longer leased.
     */
    private UpdateSetMoreStep<Record> endTurn(Field<Long> wake) {
        Tables.Tasks t = tables.tasks;
        return update(t.table)
                .set(t.availableAt, coalesce(least(t.requestedAt, wake), t.availableAt))
                .set(t.requestedAt, castNull(Long.class))
                .set(t.leaseToken, castNull(String.class))
                .set(t.leaseOwner, castNull(String.class))
                .set(t.leaseExpires, castNull(Long.class))
                .set(t.deliveries, inline(0));
    }

    /**
     * The parts, then what every statement selects: each run as found ({@code cur}) with whether its append went
     * through, the earliest turn made due by {@code moved} (announced with {@code pg_notify}), and the end
     * channel's notice when {@code finishing} holds for an accepted run (named once: an uncorrelated subquery).
     */
    private Sql result(List<CommonTableExpression<?>> parts, Condition finishing, boolean withMoved) {
        List<CommonTableExpression<?>> all = new ArrayList<>(parts);
        Field<Long> earliest = inline((Long) null);
        Field<Object> announced = inline((Object) null);
        if (withMoved) {
            Field<Long> next = field(name("next", "earliest"), Long.class);
            all.add(name("next").as(select(min(field(name("moved", "available_at"), Long.class)).as("earliest"))
                    .from(name("moved"))));
            earliest = field(select(next).from(name("next")));
            announced = field(select(function("pg_notify", Object.class, inline(channel), next.cast(String.class)))
                    .from(name("next")).where(next.isNotNull()));
        }
        return Sql.of(with(all)
                .select(field(name("cur", "run_id")), field(name("cur", "log_length")),
                        coalesce(field(name("ok", "cancel_requested"), Boolean.class),
                                field(name("cur", "cancel_requested"), Boolean.class)),
                        field(name("cur", "status")),
                        earliest,
                        OK_ID.isNotNull(),
                        announced,
                        field(select(Database.endNotice(endChannel)).from(name("ok")).where(finishing).limit(inline(1))))
                .from(name("cur"))
                .leftJoin(name("ok")).on(OK_ID.eq(field(name("cur", "run_id"), String.class))));
    }
}
