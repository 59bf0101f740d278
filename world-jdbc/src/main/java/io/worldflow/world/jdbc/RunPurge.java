package io.worldflow.world.jdbc;

import io.worldflow.spi.EventLog;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Deletes finished runs ({@link EventLog#purgeFinished}) with every row they have, in one write transaction.
 *
 * <p>Both schemas keep {@code finished_at} in {@code runs}, a column the database computes: {@code updated_at} while
 * the status is {@code COMPLETED}, {@code FAILED} or {@code CANCELED}, else null. A partial index holds only the runs
 * where it is set, in the order they finished, so that a batch reads the runs it deletes and no others, however many
 * runs are in flight or finished after the cutoff. The {@code runs} rows go first, chosen in that order and checked
 * again as they are deleted, so that a run reopened meanwhile stays; then the log, signals, signal keys and turn of the
 * runs that went. A run's other rows hang off its {@code runs} row only: no writer adds to a finished run's log or
 * signals (both check its status with the row held), so nothing is left behind.
 *
 * <p>A run that continued as new stays while its successor's row ({@code continued_from} naming it) is there, so a
 * chain goes newest first. Once a batch has deleted a successor, the run it continued is tried next in the same
 * transaction, by its key, and so on back to the chain's first run, until the batch is full: a finished chain goes
 * in one call, without reading its earlier runs again for each of its later ones.
 *
 * <p>Two purges at once do not meet: where rows are locked, each passes over the runs the other holds
 * ({@link SqlDialect#skipLocked}); where a single writer makes every write wait for the one before, the second finds
 * what the first left.
 */
final class RunPurge {

    /** The runs of a batch, chosen by {@code %s}, that finished before the cutoff and have no successor left. */
    private static final String DELETE_RUNS = """
            DELETE FROM {runs}
            WHERE run_id IN (SELECT r.run_id FROM {runs} r
                             WHERE %s AND r.finished_at < :before
                               AND NOT EXISTS (SELECT 1 FROM {runs} s WHERE s.continued_from = r.run_id)
                             ORDER BY r.finished_at, r.run_id LIMIT :limit%s)
              AND finished_at < :before
            RETURNING run_id, continued_from""";

    private final SqlDatabase db;
    private final Sql deleteOldest;
    private final Sql deletePredecessors;
    private final List<Sql> deleteRows;

    RunPurge(SqlDatabase db) {
        this.db = db;
        SqlDialect d = db.dialect();
        String ids = d.inTexts(":ids");
        this.deleteOldest = Sql.of(d.tables(DELETE_RUNS.formatted("r.finished_at IS NOT NULL", d.skipLocked())));
        this.deletePredecessors = Sql.of(d.tables(DELETE_RUNS.formatted("r.run_id" + ids, d.skipLocked())));
        this.deleteRows =
                List.of("event_log", "signals", "signal_keys", "revoked_urls", "run_attributes", "tasks").stream()
                        .map(table -> Sql.of("DELETE FROM " + d.table(table) + " WHERE run_id" + ids))
                        .toList();
    }

    /** {@link EventLog#purgeFinished}: how many runs this call deleted. */
    int purge(Instant finishedBefore, int limit) {
        EventLog.checkPurge(finishedBefore, limit);
        long before = Micros.of(finishedBefore);
        return db.write("purge finished runs", null, tx -> {
            List<String> deleted = new ArrayList<>();
            List<String[]> batch = tx.call(deleteOldest)
                    .set("before", before)
                    .set("limit", limit)
                    .list(RunPurge::deletedRun);
            while (!batch.isEmpty()) {
                Set<String> predecessors = new LinkedHashSet<>();
                for (String[] run : batch) {
                    deleted.add(run[0]);
                    if (run[1] != null) {
                        predecessors.add(run[1]);
                    }
                }
                if (predecessors.isEmpty() || deleted.size() >= limit) {
                    break;
                }
                batch = tx.call(deletePredecessors)
                        .set("ids", db.dialect().texts(predecessors))
                        .set("before", before)
                        .set("limit", limit - deleted.size())
                        .list(RunPurge::deletedRun);
            }
            if (!deleted.isEmpty()) {
                Object bound = db.dialect().texts(deleted);
                for (Sql delete : deleteRows) {
                    tx.call(delete).set("ids", bound).update();
                }
            }
            return deleted.size();
        });
    }

    /** A deleted run's id and the id of the run it continued, or null. */
    private static String[] deletedRun(ResultSet rs) throws SQLException {
        return new String[] {rs.getString(1), rs.getString(2)};
    }
}
