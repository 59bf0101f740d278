package io.worldflow.world.jdbc;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.spi.EventCodec;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** Reads rows of the {@code runs} table into {@link RunInfo}. */
public final class RunRows {

    /** The columns {@link #map} expects, in order. */
    public static final String COLUMNS = "run_id, workflow, status, input_json, input_type, output_json, output_type,"
            + " error, created_at, updated_at, available_at, deadline, queue, priority, log_length, cancel_requested,"
            + " held, cancel_reason, cancel_requested_at, held_since, parent_run_id, cancel_terminate, cancel_actor,"
            + " search_attributes, order_key";
    /** {@link #COLUMNS} of the {@code runs} table named {@code r} in a join. */
    public static final String COLUMNS_OF_R = COLUMNS.replaceAll("(\\w+)", "r.$1");

    /** How many columns {@link #COLUMNS} names. */
    public static final int COLUMN_COUNT = 25;

    private final String world;
    private final EventCodec codec;
    private final Sql find;

    public RunRows(SqlDialect dialect, EventCodec codec) {
        this.world = dialect.world();
        this.codec = codec;
        this.find = Sql.of("SELECT " + COLUMNS + " FROM " + dialect.table("runs") + " WHERE run_id = :runId");
    }

    public Optional<RunInfo> find(Tx tx, String runId) throws SQLException {
        return tx.call(find).set("runId", runId).one(rs -> map(rs, 0));
    }

    /**
     * The current row, with {@link #COLUMNS} from column {@code o + 1} on, as a run. Cancellation counts as
     * requested only until the run has finished.
     */
    public RunInfo map(ResultSet rs, int o) throws SQLException {
        String runId = rs.getString(o + 1);
        RunStatus status = status(world, rs.getString(o + 3), runId);
        return new RunInfo(
                runId,
                rs.getString(o + 2),
                status,
                new Payload(rs.getString(o + 4), rs.getString(o + 5)),
                payload(rs.getString(o + 6), rs.getString(o + 7)),
                error(rs.getString(o + 8)),
                Micros.read(rs, o + 9),
                Micros.read(rs, o + 10),
                Micros.read(rs, o + 11),
                Micros.read(rs, o + 12),
                rs.getString(o + 13),
                rs.getInt(o + 14),
                rs.getLong(o + 15),
                rs.getBoolean(o + 16) && !status.isTerminal()
                        ? new RunInfo.CancelRequest(
                                rs.getString(o + 18),
                                Micros.read(rs, o + 19),
                                rs.getBoolean(o + 22),
                                rs.getString(o + 23))
                        : null,
                error(rs.getString(o + 17)),
                Micros.read(rs, o + 20),
                rs.getString(o + 21),
                SearchIndex.read(world, runId, rs.getString(o + 24)),
                rs.getString(o + 25));
    }

    /** The stored status; one this version does not know is a damaged row, named with its run. */
    public static RunStatus status(String world, String stored, String runId) {
        try {
            return RunStatus.valueOf(stored);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new WorldException(
                    world + " world: run '" + runId + "' has an unknown status '" + stored + "'", false, e);
        }
    }

    private ErrorInfo error(String json) {
        return json == null ? null : codec.decodeError(json);
    }

    private static Payload payload(String json, String type) {
        return json == null ? null : new Payload(json, type);
    }
}
