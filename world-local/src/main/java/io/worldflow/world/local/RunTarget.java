package io.worldflow.world.local;

import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What a write aimed at one run (a signal, a cancellation, a turn) needs to know of it.
 *
 * @param cancelRequested whether cancellation was already requested
 */
record RunTarget(String runId, RunStatus status, String queue, int priority, boolean cancelRequested) {

    private static final String FIND = "SELECT status, queue, priority, cancel_requested FROM runs WHERE run_id = ?";

    static Optional<RunTarget> find(Statements sql, String runId) throws SQLException {
        PreparedStatement ps = sql.prepare(FIND);
        ps.setString(1, runId);
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            return Optional.of(new RunTarget(runId, RunRows.status(rs.getString(1), runId), rs.getString(2),
                    rs.getInt(3), rs.getInt(4) != 0));
        }
    }

    /**
     * The run, when it can still take what is sent to it.
     *
     * @param action what is being done, for the error ("signal", "cancel")
     * @throws RunNotFoundException when it does not exist
     * @throws RunFinishedException when it has finished
     */
    static RunTarget require(Statements sql, String runId, String action) throws SQLException {
        RunTarget target = find(sql, runId).orElseThrow(() -> new RunNotFoundException(runId));
        if (target.status().isTerminal()) {
            throw new RunFinishedException(runId, target.status(), action);
        }
        return target;
    }
}
