package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.format.ChainKey;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.RunRows;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Group commit: many runs' appends in one write transaction. Each append is checked against its run's
 * log length on its own (one may conflict while the others go through); the rows are written with
 * batched prepared statements, and the runs' states are read {@value #CHUNK} at a time, not one by one.
 * An append without events changes the run's status alone, under the same check.
 */
final class AppendBatch {

    private static final Sql STATES = Sql.of("SELECT run_id, status, log_length, cancel_requested, head FROM runs"
            + " WHERE run_id" + LocalDialect.INSTANCE.inTexts(":ids"));
    private static final Sql INSERT_LOG_ROW = Sql.of("""
            INSERT INTO event_log (run_id, seq, last_seq, events, link)
            VALUES (:runId, :seq, :lastSeq, :events, :link)""");
    private static final Sql UPDATE_RUN = Sql.of("""
            UPDATE runs SET status = :status, log_length = :length, updated_at = :at, output_json = :output,
                output_type = :outputType, error = :error, held = NULL, held_since = NULL, head = :head
            WHERE run_id = :runId""");
    private static final Sql CONSUME_SIGNAL = Sql.of("DELETE FROM signals WHERE id = :id AND run_id = :runId");

    /** The key of the log's hash chain, or null. */
    private final ChainKey chainKey;

    AppendBatch(ChainKey chainKey) {
        this.chainKey = chainKey;
    }

    /** What the batch knows of a run, kept current as its appends go through. */
    private static final class RunState {
        RunStatus status;
        long logLength;
        boolean cancelRequested;
        /** The link of its last record: what its next record chains over (null for a run written before links). */
        byte[] head;
    }

    /**
     * Applies the appends in order inside {@code tx}; one result per append.
     *
     * @param now the projection's {@code updatedAt} for an append of the status alone (no events)
     */
    List<AppendResult> apply(Tx tx, List<EncodedAppend> appends, Instant now) throws SQLException {
        Map<String, RunState> states = loadStates(tx, appends);
        int signalCount = 0;
        int logRows = 0;
        List<AppendResult> results = new ArrayList<>(appends.size());
        try (Sql.Call log = tx.call(INSERT_LOG_ROW);
                Sql.Call runs = tx.call(UPDATE_RUN);
                Sql.Call signals = tx.call(CONSUME_SIGNAL)) {
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
                if (encoded.events() != null) {
                    // the write holds the database, so the head read at its start is the one this record follows
                    state.head = encoded.link(state.head, chainKey);
                    log.set("runId", a.runId())
                            .set("seq", a.expectedSeq())
                            .set("lastSeq", a.nextSeq() - 1)
                            .set("events", encoded.events())
                            .set("link", state.head)
                            .addBatch();
                    logRows++;
                }
                Payload output = a.output();
                runs.set("status", a.status().name())
                        .set("length", a.nextSeq())
                        .set("at", Micros.of(a.events().isEmpty() ? now : a.lastAt()))
                        .set("output", output == null ? null : output.json())
                        .set("outputType", output == null ? null : output.type())
                        .set("error", encoded.error())
                        .set("head", state.head)
                        .set("runId", a.runId())
                        .addBatch();
                for (Long id : a.consumedSignals()) {
                    signals.set("id", id).set("runId", a.runId()).addBatch();
                    signalCount++;
                }
                if (a.status().isTerminal()) {
                    LocalDialect.delete(tx, a.runId());
                } else if (a.turnEnd() != null) {
                    LocalDialect.INSTANCE.endTurn(
                            tx, a.turnEnd().lease(), a.turnEnd().wakeAt());
                }
                state.logLength = a.nextSeq();
                state.status = a.status();
                results.add(new AppendResult(true, state.logLength, state.cancelRequested));
            }
            if (logRows > 0) {
                log.executeBatch();
            }
            runs.executeBatch();
            if (signalCount > 0) {
                signals.executeBatch();
            }
        }
        return results;
    }

    /** The state of every run the batch touches, read in one query. */
    private static Map<String, RunState> loadStates(Tx tx, List<EncodedAppend> appends) throws SQLException {
        Set<String> ids = new HashSet<>();
        for (EncodedAppend e : appends) {
            ids.add(e.append().runId());
        }
        Map<String, RunState> states = new HashMap<>(ids.size() * 2);
        tx.call(STATES).set("ids", LocalDialect.INSTANCE.texts(ids)).each(rs -> {
            RunState s = new RunState();
            s.status = RunRows.status(LocalWorldProvider.NAME, rs.getString(2), rs.getString(1));
            s.logLength = rs.getLong(3);
            s.cancelRequested = rs.getInt(4) != 0;
            s.head = rs.getBytes(5);
            return states.put(rs.getString(1), s);
        });
        return states;
    }
}
