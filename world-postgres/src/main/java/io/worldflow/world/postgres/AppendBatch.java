package io.worldflow.world.postgres;

import io.worldflow.RunStatus;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Tx;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.RunRows;
import org.jooq.CommonTableExpression;
import org.jooq.Table;

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
import static org.jooq.impl.DSL.deleteFrom;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.insertInto;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.update;
import static org.jooq.impl.DSL.with;

/**
 * Group commit: many runs' appends in one transaction. The runs' rows are locked first, all at once and
 * in run id order, so that batches of different workers touching the same runs queue up instead of
 * deadlocking. Each append is then checked against its run's log length on its own (one may conflict
 * while the others go through); what the successful ones write goes to the server as arrays, column by
 * column, and is applied set-wise ({@code unnest}) by one statement, so the cost of a batch hardly grows
 * with its size. An append without events changes the run's status alone, under the same check.
 */
final class AppendBatch {

    /** What the batch knows of a run, kept current as its appends go through. */
    private static final class RunState {
        RunStatus status;
        long logLength;
        boolean cancelRequested;
    }

    private final String endChannel;
    private final Tables tables;
    private final TaskRows taskRows;
    private final Sql lock;
    /** The write statement for each combination of parts a batch needs (see {@link Writes#key()}). */
    private final Sql[] writeStatements = new Sql[8];

    AppendBatch(Tables tables, TaskRows taskRows, String endChannel) {
        this.endChannel = endChannel;
        this.tables = tables;
        this.taskRows = taskRows;
        Tables.Runs r = tables.runs;
        this.lock = Jooq.sql(select(r.runId, r.status, r.logLength, r.cancelRequested)
                .from(r.table)
                .where(r.runId.eq(any(param("runIds", String[].class))))
                .orderBy(r.runId)
                .forUpdate());
        for (int key = 0; key < writeStatements.length; key++) {
            writeStatements[key] = writeStatement((key & 1) != 0, (key & 2) != 0, (key & 4) != 0);
        }
    }

    /**
     * Applies the appends in order inside {@code tx}; one result per append. Three round trips whatever the
     * batch holds: lock the runs, write everything (one statement), end the turns (when there are any).
     *
     * @param now the projection's {@code updatedAt} for an append of the status alone (no events)
     */
    List<AppendResult> apply(Tx tx, List<EncodedAppend> appends, Instant now) throws SQLException {
        Map<String, RunState> states = lockRuns(tx, appends);
        Writes writes = new Writes();
        List<AppendResult> results = new ArrayList<>(appends.size());
        for (EncodedAppend encoded : appends) {
            Append a = encoded.append();
            RunState state = states.get(a.runId());
            if (state == null) {
                results.add(AppendResult.missing());
                continue;
            }
            if (state.logLength != a.expectedSeq() || state.status.isTerminal()) {
                results.add(new AppendResult(false, state.logLength, state.cancelRequested));
                continue;
            }
            writes.add(encoded, now);
            state.logLength = a.nextSeq();
            state.status = a.status();
            results.add(new AppendResult(true, state.logLength, state.cancelRequested));
        }
        writes.execute(tx);
        return results;
    }

    /** What the successful appends write, gathered column-wise for {@code unnest}. */
    private final class Writes {
        final WriteColumns columns = new WriteColumns();
        /** The projection after each run's last successful append. */
        final ProjectionColumns updates = new ProjectionColumns();
        final List<TaskRows.End> ends = new ArrayList<>();

        void add(EncodedAppend encoded, Instant now) {
            Append a = encoded.append();
            columns.add(encoded);
            updates.add(encoded, now);
            if (!a.status().isTerminal() && a.turnEnd() != null) {
                ends.add(TaskRows.End.of(a.turnEnd().lease(), a.turnEnd().wakeAt()));
            }
        }

        /**
         * The write statement, then the turns that ended (a finished run's turn is already gone by then, so
         * ending it changes nothing).
         */
        void execute(Tx tx) throws SQLException {
            if (updates.isEmpty()) {
                return;
            }
            int key = columns.key();
            try (Sql.Call call = tx.call(writeStatements[key])) {
                columns.bind(call, key);
                updates.bind(call, "prId");
                call.query().close();
            }
            if (!ends.isEmpty()) {
                ends.removeIf(e -> columns.isFinished(e.runId()));
                taskRows.complete(tx, ends);
            }
        }
    }

    /**
     * One statement whose data-modifying {@code WITH} parts insert the events, update the projections,
     * consume the signals and remove the finished runs' turns, each from arrays ({@code unnest}); when runs
     * finish, its select names them on the end channel.
     */
    private Sql writeStatement(boolean withEvents, boolean withSignals, boolean withFinished) {
        List<CommonTableExpression<?>> parts = new ArrayList<>();
        if (withEvents) {
            Tables.Log l = tables.log;
            parts.add(name("logged").as(insertInto(l.table, l.runId, l.seq, l.lastSeq, l.events)
                    .select(select(WriteColumns.LOG_RUN, WriteColumns.LOG_SEQ, WriteColumns.LOG_LAST,
                            WriteColumns.LOG_EVENTS).from(WriteColumns.logRows()))
                    .returningResult(l.seq)));
        }
        Tables.Runs r = tables.runs;
        Table<?> projections = table("unnest({0}, {1}, {2}, {3}, {4}, {5}, {6})", param("prId", String[].class),
                param("prStatus", String[].class), param("prLength", Long[].class), param("prUpdated", Long[].class),
                param("prOutput", String[].class), param("prOutputType", String[].class),
                param("prError", String[].class))
                .as("pr", "run_id", "status", "log_length", "updated_at", "output_json", "output_type", "error");
        parts.add(name("projected").as(update(r.table)
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
                .where(r.runId.eq(any(param("prId", String[].class)))
                        .and(r.runId.eq(field(name("pr", "run_id"), String.class))))
                .returningResult(r.runId)));
        if (withSignals) {
            Tables.Signals sg = tables.signals;
            Table<?> consumed = table("unnest({0}, {1})", param("sigId", Long[].class), param("sigRun", String[].class))
                    .as("cs", "id", "run_id");
            parts.add(name("consumed").as(deleteFrom(sg.table).using(consumed)
                    .where(sg.id.eq(field(name("cs", "id"), Long.class))
                            .and(sg.runId.eq(field(name("cs", "run_id"), String.class))))
                    .returningResult(sg.id)));
        }
        if (withFinished) {
            Tables.Tasks t = tables.tasks;
            parts.add(name("done").as(deleteFrom(t.table)
                    .where(t.runId.eq(any(param("finished", String[].class))))
                    .returningResult(t.runId)));
        }
        return Jooq.sql(with(parts).select(withFinished ? Jooq.endNotice(endChannel) : inline(1)));
    }

    /** Locks the rows of every run the batch touches, in run id order (as the server sorts), and reads their state. */
    private Map<String, RunState> lockRuns(Tx tx, List<EncodedAppend> appends) throws SQLException {
        Set<String> ids = new LinkedHashSet<>();
        for (EncodedAppend e : appends) {
            ids.add(e.append().runId());
        }
        Map<String, RunState> states = new HashMap<>(ids.size() * 2);
        try (Sql.Call call = tx.call(lock).set("runIds", ids.toArray(String[]::new)); ResultSet rs = call.query()) {
            while (rs.next()) {
                RunState s = new RunState();
                String runId = rs.getString(1);
                s.status = RunRows.status(PostgresWorldProvider.NAME, rs.getString(2), runId);
                s.logLength = rs.getLong(3);
                s.cancelRequested = rs.getBoolean(4);
                states.put(runId, s);
            }
        }
        return states;
    }
}
