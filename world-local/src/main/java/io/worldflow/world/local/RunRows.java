package io.worldflow.world.local;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.spi.EventCodec;
import io.worldflow.world.jdbc.Micros;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** Reads rows of the {@code runs} table into {@link RunInfo}. */
final class RunRows {

    /** The columns {@link #map} expects, in order. */
    static final String COLUMNS = "run_id, workflow, status, input_json, input_type, output_json, output_type, error,"
            + " created_at, updated_at, available_at, deadline, queue, priority, log_length, cancel_requested, held,"
            + " cancel_reason, cancel_requested_at, held_since";

    private static final String FIND = "SELECT " + COLUMNS + " FROM runs WHERE run_id = ?";

    private final EventCodec codec;

    RunRows(EventCodec codec) {
        this.codec = codec;
    }

    Optional<RunInfo> find(Statements sql, String runId) throws SQLException {
        PreparedStatement ps = sql.prepare(FIND);
        ps.setString(1, runId);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(map(rs)) : Optional.empty();
        }
    }

    /** The current row as a run. Cancellation counts as requested only until the run has finished. */
    RunInfo map(ResultSet rs) throws SQLException {
        RunStatus status = status(rs.getString(3), rs.getString(1));
        return new RunInfo(
                rs.getString(1),
                rs.getString(2),
                status,
                new Payload(rs.getString(4), rs.getString(5)),
                payload(rs.getString(6), rs.getString(7)),
                error(rs.getString(8)),
                Micros.read(rs, 9),
                Micros.read(rs, 10),
                Micros.read(rs, 11),
                Micros.read(rs, 12),
                rs.getString(13),
                rs.getInt(14),
                rs.getLong(15),
                rs.getInt(16) != 0 && !status.isTerminal()
                        ? new RunInfo.CancelRequest(rs.getString(18), Micros.read(rs, 19)) : null,
                error(rs.getString(17)),
                Micros.read(rs, 20));
    }

    static RunStatus status(String stored, String runId) {
        try {
            return RunStatus.valueOf(stored);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new WorldException("local world: run '" + runId + "' has an unknown status '" + stored + "'",
                    false, e);
        }
    }

    private ErrorInfo error(String json) {
        return json == null ? null : codec.decodeError(json);
    }

    private static Payload payload(String json, String type) {
        return json == null ? null : new Payload(json, type);
    }
}
