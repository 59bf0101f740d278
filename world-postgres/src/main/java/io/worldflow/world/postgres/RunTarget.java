package io.worldflow.world.postgres;

import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import org.jooq.Record4;

import java.util.Optional;

/**
 * What a write aimed at one run (a signal, a cancellation, a turn, a hold) needs to know of it, read with
 * the run's row locked until the transaction ends: an append that finishes the run waits for it, or it
 * waits for the append and sees the run finished.
 *
 * @param cancelRequested whether cancellation was already requested
 */
record RunTarget(String runId, RunStatus status, String queue, int priority, boolean cancelRequested) {

    static Optional<RunTarget> lock(Tx tx, Tables.Runs runs, String runId) {
        Record4<String, String, Integer, Boolean> r = tx.sql
                .select(runs.status, runs.queue, runs.priority, runs.cancelRequested)
                .from(runs.table).where(runs.runId.eq(runId)).forUpdate().fetchOne();
        if (r == null) {
            return Optional.empty();
        }
        return Optional.of(new RunTarget(runId, RunRows.status(r.value1(), runId), r.value2(), r.value3(),
                Boolean.TRUE.equals(r.value4())));
    }

    /**
     * The run, locked, when it can still take what is sent to it.
     *
     * @param action what is being done, for the error ("signal", "cancel")
     * @throws RunNotFoundException when it does not exist
     * @throws RunFinishedException when it has finished
     */
    static RunTarget require(Tx tx, Tables.Runs runs, String runId, String action) {
        RunTarget target = lock(tx, runs, runId).orElseThrow(() -> new RunNotFoundException(runId));
        if (target.status().isTerminal()) {
            throw new RunFinishedException(runId, target.status(), action);
        }
        return target;
    }
}
