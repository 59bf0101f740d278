package io.worldflow.world.local;

import java.sql.SQLException;

/** Work done with a database connection, inside a transaction when {@code S} is {@link Tx}. */
@FunctionalInterface
interface SqlWork<S extends Statements, T> {

    T run(S statements) throws SQLException;
}
