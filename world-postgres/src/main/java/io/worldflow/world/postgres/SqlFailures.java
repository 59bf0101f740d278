package io.worldflow.world.postgres;

import io.worldflow.WorldException;
import io.worldflow.world.jdbc.Failures;
import org.postgresql.util.PSQLException;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Turns PostgreSQL's exceptions (as thrown by pgjdbc or HikariCP) into {@link WorldException}s
 * that say what was being done, to which run, and whether trying again may help.
 */
final class SqlFailures {

    /** SQLSTATEs after which the same call may succeed: conflicts, shutdowns, overload. */
    private static final Set<String> TRANSIENT_STATES = Set.of(
            "40001", // serialization_failure
            "40P01", // deadlock_detected
            "55P03", // lock_not_available
            "57P01", // admin_shutdown
            "57P02", // crash_shutdown
            "57P03", // cannot_connect_now (starting up, shutting down, in recovery)
            "53300", // too_many_connections
            "53400"); // configuration_limit_exceeded

    private SqlFailures() {}

    /**
     * @param operation what was being done ("append", "lease")
     * @param subject   the run it concerned ({@link Failures#run}), or null
     */
    static WorldException wrap(String operation, String subject, PgSettings settings, Throwable failure) {
        SQLException sql = sqlCause(failure);
        boolean transientFailure = isTransient(failure);
        String state = sql == null ? null : sql.getSQLState();
        String detail = sql == null ? failure.toString() : sql.getMessage();
        return new WorldException(
                Failures.failed(PostgresWorldProvider.NAME, operation, subject, settings.maskedUrl())
                        + (transientFailure ? " (the database is unreachable or busy; try again)" : "")
                        + ": " + detail + (state == null ? "" : " [SQLState " + state + "]"),
                transientFailure,
                failure);
    }

    /** The error for credentials the server refused, naming the user and the URL (never the password). */
    static WorldException loginRefused(PgSettings settings, SQLException e) {
        return new WorldException(
                "postgres world: the server at " + settings.maskedUrl() + " refused user '"
                        + settings.userShown() + "': " + e.getMessage() + " [SQLState " + e.getSQLState() + "]; check "
                        + PostgresWorldProvider.USER + " and " + PostgresWorldProvider.PASSWORD,
                false,
                e);
    }

    /** Whether the failure is a lost or refused connection, a shutdown, or a conflict that a retry resolves. */
    static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state))) {
                    return true;
                }
                if (state != null && !state.isEmpty() && !(t instanceof SQLTransientException)) {
                    return false; // the server answered with a definite error
                }
                if (t instanceof SQLTransientException || t instanceof SQLRecoverableException) {
                    return true;
                }
            }
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /** Whether the failure is a unique violation (23505) on a key of {@code table} (unqualified). */
    static boolean isDuplicateKey(SQLException e, String table) {
        return "23505".equals(e.getSQLState())
                && e instanceof PSQLException p
                && p.getServerErrorMessage() != null
                && table.equals(p.getServerErrorMessage().getTable());
    }

    /** Whether the server refused the credentials (class 28: invalid authorization). */
    static boolean isLoginRefused(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("28");
    }

    /** The innermost SQLException in the chain that carries a SQLSTATE, else the outermost one, else null. */
    static SQLException sqlCause(Throwable failure) {
        SQLException first = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                if (sql.getSQLState() != null) {
                    return sql;
                }
                if (first == null) {
                    first = sql;
                }
            }
        }
        return first;
    }
}
