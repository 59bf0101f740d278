package io.worldflow.world.postgres;

import io.worldflow.RunStatus;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Tx;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.RunRows;
import org.jooq.CommonTableExpression;
import org.jooq.Field;
import org.jooq.Table;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.jooq.impl.DSL.all;
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
 * A batch of appends as <b>one self-committing statement</b> — one round trip, commit included — when each
 * run appears in it once and no turn ends without a next time (the usual case: a step's flush, a sleep, a
 * run's end). Its {@code WITH} parts lock the runs in run id order ({@code FOR UPDATE}) when there are several,
 * update the projections of those whose log length is the expected one and which have not finished (the update
 * is the check: a single run is not locked before it, and costs one row version in the WAL, not a lock and then
 * a version); and only for those insert the events, consume the signals, remove a finished run's turn and end
 * the turns, announcing the earliest next one and naming the finished runs on the end channel. The main query returns each run's state as found and whether its append
 * went through. Other batches go through {@link AppendBatch} (a transaction of a few statements).
 */
final class AppendStatement {

    private static final Field<String> OK_ID = field(name("ok", "run_id"), String.class);
    private static final String[] TERMINAL = {RunStatus.COMPLETED.name(), RunStatus.FAILED.name(),
            RunStatus.CANCELED.name()};

    private final Tables tables;
    private final Sql current;
    private final String channel;
    private final String endChannel;
    /**
     * The statement for each combination of parts (1 events, 2 signals, 4 finished runs, 8 turn ends) and
     * count of runs (16 several).
     */
    private final AtomicReferenceArray<Sql> statements = new AtomicReferenceArray<>(32);

    AppendStatement(Tables tables, String channel, String endChannel) {
        this.tables = tables;
        this.channel = channel;
        this.endChannel = endChannel;
        this.current = Jooq.sql(select(tables.runs.logLength, tables.runs.cancelRequested).from(tables.runs.table)
                .where(tables.runs.runId.eq(param("runId", String.class))));
    }

    /** Whether the batch can go as one statement: each run once, and every turn end has a next time. */
    static boolean fits(List<EncodedAppend> appends) {
        Set<String> runs = new HashSet<>();
        for (EncodedAppend e : appends) {
            Append a = e.append();
            if (!runs.add(a.runId())) {
                return false;
            }
            if (!a.status().isTerminal() && a.turnEnd() != null && a.turnEnd().wakeAt() == null) {
                return false;   // removing the turn depends on a turn requested meanwhile: see TaskRows
            }
        }
        return true;
    }

    /** Runs the batch (which {@link #fits}) on {@code tx} in autocommit mode. */
    List<AppendResult> apply(Tx tx, List<EncodedAppend> appends, Instant now) throws SQLException {
        int n = appends.size();
        Long[] expected = new Long[n];
        ProjectionColumns projections = new ProjectionColumns();
        WriteColumns columns = new WriteColumns();
        List<String> endRuns = new ArrayList<>();
        List<String> endTokens = new ArrayList<>();
        List<Long> endWakes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            EncodedAppend encoded = appends.get(i);
            Append a = encoded.append();
            expected[i] = a.expectedSeq();
            projections.add(encoded, now);
            columns.add(encoded);
            if (!a.status().isTerminal() && a.turnEnd() != null) {
                endRuns.add(a.runId());
                endTokens.add(a.turnEnd().lease().token());
                endWakes.add(Micros.of(a.turnEnd().wakeAt()));
            }
        }
        int key = columns.key() | (endRuns.isEmpty() ? 0 : 8) | (n > 1 ? 16 : 0);
        Map<String, long[]> found = new HashMap<>(n * 2);
        Long earliest = null;
        try (Sql.Call call = tx.call(statement(key))) {
            // each run once (fits), so the projections' run ids are in the appends' order, as expected[] is
            projections.bind(call, "ids");
            call.set("expected", expected).set("terminal", TERMINAL);
            columns.bind(call, key);
            if ((key & 8) != 0) {
                call.set("endRun", endRuns.toArray(String[]::new)).set("endToken", endTokens.toArray(String[]::new))
                        .set("endWake", endWakes.toArray(Long[]::new)).set("channel", channel);
            }
            try (ResultSet rs = call.query()) {
                while (rs.next()) {
                    String runId = rs.getString(1);
                    boolean terminal = RunRows.status(PostgresWorldProvider.NAME, rs.getString(4), runId).isTerminal();
                    found.put(runId, new long[]{rs.getLong(2), rs.getBoolean(3) ? 1 : 0, rs.getBoolean(8) ? 1 : 0,
                            terminal ? 1 : 0});
                    if ((key & 8) != 0) {
                        long e = rs.getLong(5);
                        earliest = rs.wasNull() ? earliest : Long.valueOf(e);
                    }
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

    private Sql statement(int key) {
        Sql sql = statements.get(key);
        if (sql == null) {
            sql = build((key & 1) != 0, (key & 2) != 0, (key & 4) != 0, (key & 8) != 0, (key & 16) != 0);
            statements.compareAndSet(key, null, sql);
        }
        return sql;
    }

    private Sql build(boolean withEvents, boolean withSignals, boolean withFinished, boolean withEnds,
                      boolean severalRuns) {
        Tables.Runs r = tables.runs;
        Tables.Tasks t = tables.tasks;
        List<CommonTableExpression<?>> parts = new ArrayList<>();
        // The state as found, for the appends refused. Several runs are locked here first, in run id order, so
        // that batches of different workers touching the same runs queue up instead of deadlocking (an update's
        // order of rows is the plan's); a single run needs no order, and its update below takes the lock.
        var found = select(r.runId, r.status, r.logLength, r.cancelRequested).from(r.table)
                .where(r.runId.eq(any(param("ids", String[].class))));
        parts.add(name("cur").fields("run_id", "status", "log_length", "cancel_requested")
                .asMaterialized(severalRuns ? found.orderBy(r.runId).forUpdate() : found));
        Table<?> projections = table("unnest({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7})", param("ids", String[].class),
                param("expected", Long[].class), param("prStatus", String[].class), param("prLength", Long[].class),
                param("prUpdated", Long[].class), param("prOutput", String[].class),
                param("prOutputType", String[].class), param("prError", String[].class))
                .as("pr", "run_id", "expected", "status", "log_length", "updated_at", "output_json", "output_type",
                        "error");
        // The check and the update are one: an unlocked row is locked by the update, which re-checks the
        // condition on its newest version when another transaction changed it meanwhile.
        parts.add(name("ok").fields("run_id", "cancel_requested").as(update(r.table)
                .set(r.status, field(name("pr", "status"), String.class))
                .set(r.logLength, field(name("pr", "log_length"), Long.class))
                .set(r.updatedAt, field(name("pr", "updated_at"), Long.class))
                .set(r.outputJson, field(name("pr", "output_json"), String.class))
                .set(r.outputType, field(name("pr", "output_type"), String.class))
                .set(r.error, field(name("pr", "error"), String.class))
                .set(r.held, inline((String) null))
                .set(r.heldSince, inline((Long) null))
                .from(projections)
                // the ids also as a condition of their own: runs is read through its key, not scanned for the join
                .where(r.runId.eq(any(param("ids", String[].class)))
                        .and(r.runId.eq(field(name("pr", "run_id"), String.class)))
                        .and(r.logLength.eq(field(name("pr", "expected"), Long.class)))
                        .and(r.status.ne(all(param("terminal", String[].class))))
                        // several: only rows that cur locked, which makes cur lock them first
                        .and(severalRuns ? r.runId.in(select(field(name("cur", "run_id"), String.class)).from(name("cur")))
                                : noCondition()))
                .returningResult(r.runId, r.cancelRequested)));
        if (withEvents) {
            Tables.Log l = tables.log;
            parts.add(name("logged").as(insertInto(l.table, l.runId, l.seq, l.lastSeq, l.events)
                    .select(select(WriteColumns.LOG_RUN, WriteColumns.LOG_SEQ, WriteColumns.LOG_LAST,
                            WriteColumns.LOG_EVENTS).from(WriteColumns.logRows())
                            .where(WriteColumns.LOG_RUN.in(select(OK_ID).from(name("ok")))))
                    .returningResult(l.seq)));
        }
        if (withSignals) {
            Tables.Signals sg = tables.signals;
            Table<?> consumed = table("unnest({0}, {1})", param("sigId", Long[].class), param("sigRun", String[].class))
                    .as("cs", "id", "run_id");
            Field<String> csRun = field(name("cs", "run_id"), String.class);
            parts.add(name("consumed").as(deleteFrom(sg.table).using(consumed)
                    .where(sg.id.eq(field(name("cs", "id"), Long.class)).and(sg.runId.eq(csRun))
                            .and(csRun.in(select(OK_ID).from(name("ok")))))
                    .returningResult(sg.id)));
        }
        if (withFinished) {
            // the accepted appends among the finishing ones, then each one's turn by its key: the list of finishing
            // runs stays out of the key lookup, where the server would sort it again for every row
            parts.add(name("done").as(deleteFrom(t.table)
                    .where(t.runId.in(select(OK_ID).from(name("ok"))
                            .where(OK_ID.eq(any(param("finished", String[].class))))))
                    .returningResult(t.runId)));
        }
        Field<Long> earliest = inline((Long) null);
        Field<Object> announced = inline((Object) null);
        if (withEnds) {
            Table<?> ends = table("unnest({0}, {1}, {2})", param("endRun", String[].class),
                    param("endToken", String[].class), param("endWake", Long[].class)).as("i", "run_id", "token", "wake_at");
            Field<String> endRun = field(name("i", "run_id"), String.class);
            parts.add(name("moved").as(update(t.table)
                    .set(t.availableAt, coalesce(least(t.requestedAt, field(name("i", "wake_at"), Long.class)),
                            t.availableAt))
                    .set(t.requestedAt, castNull(Long.class))
                    .set(t.leaseToken, castNull(String.class))
                    .set(t.leaseOwner, castNull(String.class))
                    .set(t.leaseExpires, castNull(Long.class))
                    .set(t.deliveries, inline(0))
                    .from(ends)
                    .where(t.runId.eq(endRun).and(t.leaseToken.eq(field(name("i", "token"), String.class)))
                            .and(endRun.in(select(OK_ID).from(name("ok")))))
                    .returningResult(t.availableAt)));
            Field<Long> moved = field(name("moved", "available_at"), Long.class);
            Field<Long> m = field(name("m", "earliest"), Long.class);
            earliest = field(select(min(moved)).from(name("moved")));
            announced = field(select(Jooq.announce(m))
                    .from(select(min(moved).as("earliest")).from(name("moved")).asTable("m"))
                    .where(m.isNotNull()));
        }
        Field<Object> ended = inline((Object) null);
        if (withFinished) {
            // named once (an uncorrelated subquery), when one of the finishing appends was accepted
            ended = field(select(Jooq.endNotice(endChannel)).from(name("ok"))
                    .where(OK_ID.eq(any(param("finished", String[].class)))).limit(inline(1)));
        }
        Field<Boolean> okCancel = field(name("ok", "cancel_requested"), Boolean.class);
        return Jooq.sql(with(parts)
                .select(field(name("cur", "run_id")), field(name("cur", "log_length")),
                        coalesce(okCancel, field(name("cur", "cancel_requested"), Boolean.class)),
                        field(name("cur", "status")), earliest, announced, ended, OK_ID.isNotNull())
                .from(name("cur"))
                .leftJoin(name("ok")).on(OK_ID.eq(field(name("cur", "run_id"), String.class))));
    }
}
