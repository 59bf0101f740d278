package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Tx;
import io.worldflow.world.jdbc.RunRows;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
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

    static final int CHUNK = 100;

    private static final String STATES = "SELECT run_id, status, log_length, cancel_requested FROM runs WHERE run_id IN ("
            + String.join(", ", Collections.nCopies(CHUNK, "?")) + ")";
    static final String INSERT_LOG_ROW = "INSERT INTO event_log (run_id, seq, last_seq, events) VALUES (?, ?, ?, ?)";
    private static final String UPDATE_RUN = """
            UPDATE runs SET status = ?, log_length = ?, updated_at = ?, output_json = ?, output_type = ?, error = ?,
                held = NULL, held_since = NULL
            WHERE run_id = ?""";
    private static final String CONSUME_SIGNAL = "DELETE FROM signals WHERE id = ? AND run_id = ?";

    /** What the batch knows of a run, kept current as its appends go through. */
    private static final class RunState {
        RunStatus status;
        long logLength;
        boolean cancelRequested;
    }

    /**
     * Applies the appends in order inside {@code tx}; one result per append.
     *
     * @param now the projection's {@code updatedAt} for an append of the status alone (no events)
     */
    List<AppendResult> apply(Tx tx, List<EncodedAppend> appends, Instant now) throws SQLException {
        Map<String, RunState> states = loadStates(tx, appends);
        PreparedStatement log = tx.prepare(INSERT_LOG_ROW);
        PreparedStatement runs = tx.prepare(UPDATE_RUN);
        PreparedStatement signals = tx.prepare(CONSUME_SIGNAL);
        int signalCount = 0;
        int logRows = 0;
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
            if (encoded.events() != null) {
                bindLogRow(log, a.runId(), a.expectedSeq(), a.nextSeq() - 1, encoded.events());
                log.addBatch();
                logRows++;
            }
            addRunUpdate(runs, a, encoded.error(), now);
            for (Long id : a.consumedSignals()) {
                signals.setLong(1, id);
                signals.setString(2, a.runId());
                signals.addBatch();
                signalCount++;
            }
            if (a.status().isTerminal()) {
                TaskRows.delete(tx, a.runId());
            } else if (a.turnEnd() != null) {
                TaskRows.complete(tx, a.turnEnd().lease(), a.turnEnd().wakeAt());
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
        return results;
    }

    /** Binds {@link #INSERT_LOG_ROW}: the events {@code seq} … {@code lastSeq} of one append, as one JSON array. */
    static void bindLogRow(PreparedStatement ps, String runId, long seq, long lastSeq, String events)
            throws SQLException {
        ps.setString(1, runId);
        ps.setLong(2, seq);
        ps.setLong(3, lastSeq);
        ps.setString(4, events);
    }

    private static void addRunUpdate(PreparedStatement ps, Append a, String errorJson, Instant now)
            throws SQLException {
        Payload output = a.output();
        ps.setString(1, a.status().name());
        ps.setLong(2, a.nextSeq());
        ps.setLong(3, Micros.of(a.events().isEmpty() ? now : a.lastAt()));
        ps.setString(4, output == null ? null : output.json());
        ps.setString(5, output == null ? null : output.type());
        ps.setString(6, errorJson);
        ps.setString(7, a.runId());
        ps.addBatch();
    }

    /** The state of every run the batch touches, read {@value #CHUNK} ids per query. */
    private static Map<String, RunState> loadStates(Tx tx, List<EncodedAppend> appends) throws SQLException {
        Set<String> ids = new LinkedHashSet<>();
        for (EncodedAppend e : appends) {
            ids.add(e.append().runId());
        }
        Map<String, RunState> states = new HashMap<>(ids.size() * 2);
        List<String> all = new ArrayList<>(ids);
        PreparedStatement ps = tx.prepare(STATES);
        for (int from = 0; from < all.size(); from += CHUNK) {
            for (int i = 0; i < CHUNK; i++) {
                int at = from + i;
                ps.setString(i + 1, at < all.size() ? all.get(at) : null);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    RunState s = new RunState();
                    s.status = RunRows.status(LocalWorldProvider.NAME, rs.getString(2), rs.getString(1));
                    s.logLength = rs.getLong(3);
                    s.cancelRequested = rs.getInt(4) != 0;
                    states.put(rs.getString(1), s);
                }
            }
        }
        return states;
    }
}
