package io.worldflow.world.local;

import io.worldflow.WorldException;
import io.worldflow.world.jdbc.Failures;

import java.nio.file.Path;
import java.sql.SQLException;

/** Turns SQLite's exceptions into {@link WorldException}s that say what was being done and to which run. */
final class SqlFailures {

    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;

    private SqlFailures() {}

    /**
     * @param operation what was being done ("append", "lease")
     * @param subject   the run it concerned ({@link Failures#run}), or null
     */
    static WorldException wrap(String operation, String subject, Path database, SQLException e) {
        boolean transientFailure = isBusy(e);
        return new WorldException(
                Failures.failed(LocalWorldProvider.NAME, operation, subject, database.toString())
                        + (transientFailure ? " (database busy, try again)" : "") + ": " + e.getMessage(),
                transientFailure,
                e);
    }

    /** SQLITE_BUSY or SQLITE_LOCKED, including their extended codes. */
    static boolean isBusy(SQLException e) {
        int primary = e.getErrorCode() & 0xFF;
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
    }
}
