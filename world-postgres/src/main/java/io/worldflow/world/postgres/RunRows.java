package io.worldflow.world.postgres;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.spi.EventCodec;
import io.worldflow.world.jdbc.Micros;
import org.jooq.SelectField;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;

/** Reads rows of the {@code runs} table into {@link RunInfo}. */
final class RunRows {

    private final Tables.Runs runs;
    private final EventCodec codec;
    /** The columns {@link #map} reads, in order. */
    final SelectField<?>[] columns;
    private final Sql find;

    RunRows(Tables tables, EventCodec codec) {
        this.runs = tables.runs;
        this.codec = codec;
        this.columns = new SelectField<?>[]{runs.runId, runs.workflow, runs.status, runs.inputJson, runs.inputType,
                runs.outputJson, runs.outputType, runs.error, runs.createdAt, runs.updatedAt, runs.availableAt,
                runs.deadline, runs.queue, runs.priority, runs.logLength, runs.cancelRequested, runs.held,
                runs.cancelReason, runs.cancelRequestedAt, runs.heldSince};
        this.find = Sql.of(select(columns).from(runs.table).where(runs.runId.eq(param("runId", String.class))));
    }

    Optional<RunInfo> find(Tx tx, String runId) throws SQLException {
        try (Sql.Call call = tx.call(find).set("runId", runId); ResultSet rs = call.query()) {
            return rs.next() ? Optional.of(map(rs)) : Optional.empty();
        }
    }

    /** The current row (selected with {@link #columns}) as a run. Cancellation counts only until the run finished. */
    RunInfo map(ResultSet rs) throws SQLException {
        return map(rs, 0);
    }

    /** Like {@link #map(ResultSet)}, with {@link #columns} from column {@code o + 1} on. */
    RunInfo map(ResultSet rs, int o) throws SQLException {
        String runId = rs.getString(o + 1);
        RunStatus status = status(rs.getString(o + 3), runId);
        boolean cancelRequested = rs.getBoolean(o + 16) && !status.isTerminal();
        return new RunInfo(
                runId,
                rs.getString(o + 2),
                status,
                new Payload(rs.getString(o + 4), rs.getString(o + 5)),
                payload(rs.getString(o + 6), rs.getString(o + 7)),
                error(rs.getString(o + 8)),
                instant(rs, o + 9),
                instant(rs, o + 10),
                instant(rs, o + 11),
                instant(rs, o + 12),
                rs.getString(o + 13),
                rs.getInt(o + 14),
                rs.getLong(o + 15),
                cancelRequested ? new RunInfo.CancelRequest(rs.getString(o + 18), instant(rs, o + 19)) : null,
                error(rs.getString(o + 17)),
                instant(rs, o + 20));
    }

    /** The column as an instant, or null when it is NULL. */
    static Instant instant(ResultSet rs, int column) throws SQLException {
        long micros = rs.getLong(column);
        return rs.wasNull() ? null : Micros.toInstant(micros);
    }

    static RunStatus status(String stored, String runId) {
        try {
            return RunStatus.valueOf(stored);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new WorldException("postgres world: run '" + runId + "' has an unknown status '" + stored + "'",
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
