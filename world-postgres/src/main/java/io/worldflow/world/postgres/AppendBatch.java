package io.worldflow.world.postgres;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.EventCodec;
import org.jooq.BatchBindStep;
import org.jooq.Record4;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.inline;

/**
 * Group commit: many runs' appends in one transaction. The runs' rows are locked first, all at once and
 * in run id order, so that batches of different workers touching the same runs queue up instead of
 * deadlocking. Each append is then checked against its run's log length on its own (one may conflict
 * while the others go through); events, projections and consumed signals are written with JDBC batches,
 * and the turns end set-wise. An append without events changes the run's status alone, under the same check.
 */
final class AppendBatch {

    /** An append with its JSON made before the transaction. */
    record Encoded(Append append, List<String> events, String error) {
    }

    /** What the batch knows of a run, kept current as its appends go through. */
    private static final class RunState {
        RunStatus status;
        long logLength;
        boolean cancelRequested;
    }

    /** The projection of one run after the batch's last successful append to it. */
    private record RunUpdate(String status, long logLength, long updatedAt, String outputJson, String outputType,
                             String error) {
    }

    private final EventCodec codec;
    private final Tables tables;
    private final TaskRows taskRows;

    AppendBatch(EventCodec codec, Tables tables, TaskRows taskRows) {
        this.codec = codec;
        this.tables = tables;
        this.taskRows = taskRows;
    }

    /** Turns the events and error into JSON; done before the transaction so that rows are locked briefly. */
    List<Encoded> encode(List<Append> appends) {
        List<Encoded> out = new ArrayList<>(appends.size());
        for (Append a : appends) {
            List<String> events = new ArrayList<>(a.events().size());
            for (Event e : a.events()) {
                events.add(codec.encode(e));
            }
            ErrorInfo error = a.error();
            out.add(new Encoded(a, events, error == null ? null : codec.encodeError(error)));
        }
        return out;
    }

    /**
     * Applies the appends in order inside {@code tx}; one result per append.
     *
     * @param now the projection's {@code updatedAt} for an append of the status alone (no events)
     */
    List<AppendResult> apply(Tx tx, List<Encoded> appends, Instant now) {
        Map<String, RunState> states = lockRuns(tx, appends);
        Tables.Events e = tables.events;
        BatchBindStep events = tx.sql.batch(tx.sql.insertInto(e.table, e.runId, e.seq, e.type, e.at, e.json)
                .values((String) null, (Long) null, (String) null, (Long) null, (String) null));
        int eventCount = 0;
        Map<String, RunUpdate> updates = new LinkedHashMap<>();
        List<Object[]> consumed = new ArrayList<>();
        List<TaskRows.End> ends = new ArrayList<>();
        Set<String> finished = new LinkedHashSet<>();
        List<AppendResult> results = new ArrayList<>(appends.size());
        for (Encoded encoded : appends) {
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
            List<Event> list = a.events();
            for (int i = 0; i < list.size(); i++) {
                Event event = list.get(i);
                events.bind(a.runId(), event.seq(), event.type(), Micros.of(event.at()), encoded.events().get(i));
                eventCount++;
            }
            Payload output = a.output();
            updates.put(a.runId(), new RunUpdate(a.status().name(), a.nextSeq(),
                    Micros.of(list.isEmpty() ? now : a.lastAt()), output == null ? null : output.json(),
                    output == null ? null : output.type(), encoded.error()));
            for (Long id : a.consumedSignals()) {
                consumed.add(new Object[]{id, a.runId()});
            }
            if (a.status().isTerminal()) {
                finished.add(a.runId());
            } else if (a.turnEnd() != null) {
                ends.add(TaskRows.End.of(a.turnEnd().lease(), a.turnEnd().wakeAt()));
            }
            state.logLength = a.nextSeq();
            state.status = a.status();
            results.add(new AppendResult(true, state.logLength, state.cancelRequested));
        }
        if (eventCount > 0) {
            events.execute();
        }
        updateRuns(tx, updates);
        consumeSignals(tx, consumed);
        taskRows.complete(tx, ends);
        taskRows.delete(tx, finished);
        return results;
    }

    /** Locks the rows of every run the batch touches, in run id order, and reads their state. */
    private Map<String, RunState> lockRuns(Tx tx, List<Encoded> appends) {
        Set<String> ids = new TreeSet<>();
        for (Encoded e : appends) {
            ids.add(e.append().runId());
        }
        Tables.Runs r = tables.runs;
        Map<String, RunState> states = new HashMap<>(ids.size() * 2);
        for (Record4<String, String, Long, Boolean> row : tx.sql
                .select(r.runId, r.status, r.logLength, r.cancelRequested)
                .from(r.table)
                .where(r.runId.eq(any(ids.toArray(String[]::new))))
                .orderBy(r.runId)
                .forUpdate()
                .fetch()) {
            RunState s = new RunState();
            s.status = RunRows.status(row.value2(), row.value1());
            s.logLength = row.value3();
            s.cancelRequested = Boolean.TRUE.equals(row.value4());
            states.put(row.value1(), s);
        }
        return states;
    }

    private void updateRuns(Tx tx, Map<String, RunUpdate> updates) {
        if (updates.isEmpty()) {
            return;
        }
        Tables.Runs r = tables.runs;
        BatchBindStep batch = tx.sql.batch(tx.sql.update(r.table)
                .set(r.status, (String) null)
                .set(r.logLength, (Long) null)
                .set(r.updatedAt, (Long) null)
                .set(r.outputJson, (String) null)
                .set(r.outputType, (String) null)
                .set(r.error, (String) null)
                .set(r.held, inline((String) null))
                .where(r.runId.eq((String) null)));
        updates.forEach((runId, u) -> batch.bind(u.status(), u.logLength(), u.updatedAt(), u.outputJson(),
                u.outputType(), u.error(), runId));
        batch.execute();
    }

    private void consumeSignals(Tx tx, List<Object[]> consumed) {
        if (consumed.isEmpty()) {
            return;
        }
        Tables.Signals s = tables.signals;
        BatchBindStep batch = tx.sql.batch(tx.sql.deleteFrom(s.table)
                .where(s.id.eq((Long) null).and(s.runId.eq((String) null))));
        for (Object[] pair : consumed) {
            batch.bind(pair);
        }
        batch.execute();
    }
}
