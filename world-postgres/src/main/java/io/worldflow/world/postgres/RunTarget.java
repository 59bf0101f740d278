package io.worldflow.world.postgres;

import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;

/**
 * What a write aimed at one run (a signal, a cancellation, a turn, a hold) needs to know of it, read with
 * the run's row locked until the transaction ends: an append that finishes the run waits for it, or it
 * waits for the append and sees the run finished.
 *
 * @param cancelRequested whether cancellation was already requested
 */
record RunTarget(String runId, RunStatus status, String queue, int priority, boolean cancelRequested) {

    /** Reads and locks runs' rows. */
    static final class Locker {

        private final Sql lock;

        Locker(Tables tables) {
            Tables.Runs runs = tables.runs;
            this.lock = Sql.of(select(runs.status, runs.queue, runs.priority, runs.cancelRequested)
                    .from(runs.table).where(runs.runId.eq(param("runId", String.class))).forUpdate());
        }

        Optional<RunTarget> lock(Tx tx, String runId) throws SQLException {
            try (Sql.Call call = tx.call(lock).set("runId", runId); ResultSet rs = call.query()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new RunTarget(runId, RunRows.status(rs.getString(1), runId), rs.getString(2),
                        rs.getInt(3), rs.getBoolean(4)));
            }
        }

        /**
         * The run, locked, when it can still take what is sent to it.
         *
         * @param action what is being done, for the error ("signal", "cancel")
         * @throws RunNotFoundException when it does not exist
         * @throws RunFinishedException when it has finished
         */
        RunTarget require(Tx tx, String runId, String action) throws SQLException {
            RunTarget target = lock(tx, runId).orElseThrow(() -> new RunNotFoundException(runId));
            if (target.status().isTerminal()) {
                throw new RunFinishedException(runId, target.status(), action);
            }
            return target;
        }
    }
}
