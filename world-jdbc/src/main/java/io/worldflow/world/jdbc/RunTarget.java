package io.worldflow.world.jdbc;

import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;

import java.sql.SQLException;
import java.util.Optional;

/**
 * What a write aimed at one run (a signal, a cancellation, a turn, a hold) needs to know of it, read with the
 * run's row held until the write commits ({@link SqlDialect#lockRow}): an append that finishes the run waits for
 * it, or it waits for the append and sees the run finished.
 *
 * @param cancelRequested whether cancellation was already requested
 * @param logLength       how many events its log holds
 */
public record RunTarget(
        String runId, RunStatus status, String queue, int priority, boolean cancelRequested, long logLength) {

    /** Reads runs' rows for writes aimed at them. */
    public static final class Reader {

        private final String world;
        private final Sql find;

        public Reader(SqlDialect dialect) {
            this.world = dialect.world();
            this.find = Sql.of("SELECT status, queue, priority, cancel_requested, log_length FROM "
                    + dialect.table("runs") + " WHERE run_id = :runId" + dialect.lockRow());
        }

        public Optional<RunTarget> find(Tx tx, String runId) throws SQLException {
            return tx.call(find)
                    .set("runId", runId)
                    .one(rs -> new RunTarget(
                            runId,
                            RunRows.status(world, rs.getString(1), runId),
                            rs.getString(2),
                            rs.getInt(3),
                            rs.getBoolean(4),
                            rs.getLong(5)));
        }

        /**
         * The run, when it can still take what is sent to it.
         *
         * @param action what is being done, for the error ("signal", "cancel")
         * @throws RunNotFoundException when it does not exist
         * @throws RunFinishedException when it has finished
         */
        public RunTarget require(Tx tx, String runId, String action) throws SQLException {
            RunTarget target = find(tx, runId).orElseThrow(() -> new RunNotFoundException(runId));
            if (target.status().isTerminal()) {
                throw new RunFinishedException(runId, target.status(), action);
            }
            return target;
        }
    }
}
