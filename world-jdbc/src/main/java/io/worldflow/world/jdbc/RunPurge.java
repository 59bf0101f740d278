package io.worldflow.world.jdbc;

import io.worldflow.spi.EventLog;

import java.time.Instant;
import java.util.List;

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
 * <p>Two purges at once do not meet: where rows are locked, each passes over the runs the other holds
 * ({@link SqlDialect#skipLocked}); where a single writer makes every write wait for the one before, the second finds
 * what the first left.
 */
final class RunPurge {

    private final SqlDatabase db;
    private final Sql deleteRuns;
    private final List<Sql> deleteRows;

    RunPurge(SqlDatabase db) {
        this.db = db;
        SqlDialect d = db.dialect();
        this.deleteRuns = Sql.of(d.tables("""
                DELETE FROM {runs}
                WHERE run_id IN (SELECT run_id FROM {runs} WHERE finished_at < :before
                                 ORDER BY finished_at, run_id LIMIT :limit%s)
                  AND finished_at < :before
                RETURNING run_id""".formatted(d.skipLocked())));
        String ids = d.inTexts(":ids");
        this.deleteRows =
                List.of("event_log", "signals", "signal_keys", "revoked_urls", "run_attributes", "tasks").stream()
                        .map(table -> Sql.of("DELETE FROM " + d.table(table) + " WHERE run_id" + ids))
                        .toList();
    }

    /** {@link EventLog#purgeFinished}: how many runs this call deleted. */
    int purge(Instant finishedBefore, int limit) {
        EventLog.checkPurge(finishedBefore, limit);
        return db.write("purge finished runs", null, tx -> {
            List<String> deleted = tx.call(deleteRuns)
                    .set("before", Micros.of(finishedBefore))
                    .set("limit", limit)
                    .list(rs -> rs.getString(1));
            if (!deleted.isEmpty()) {
                Object bound = db.dialect().texts(deleted);
                for (Sql delete : deleteRows) {
                    tx.call(delete).set("ids", bound).update();
                }
            }
            return deleted.size();
        });
    }
}
