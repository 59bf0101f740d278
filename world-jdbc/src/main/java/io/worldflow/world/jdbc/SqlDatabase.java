package io.worldflow.world.jdbc;

/**
 * How a SQL world runs work on its database, for the facets this layer writes once. A failure of the database
 * reaches the caller as a {@link io.worldflow.WorldException} that names the operation and the subject.
 */
public interface SqlDatabase {

    /**
     * Runs {@code work} in one write transaction: committed when it returns, rolled back when it throws; once
     * committed, subscribers hear of the earliest due time it noted ({@link Tx#wakeAt}).
     *
     * @param operation what is being done, for error messages ("signal", "cancel")
     * @param subject   the run concerned ({@link Failures#run}), or null
     */
    <T> T write(String operation, String subject, SqlWork<T> work);

    /** Runs {@code work}, which only reads, beside other work. */
    <T> T read(String operation, String subject, SqlWork<T> work);

    /** What this database says its own way. */
    SqlDialect dialect();
}
