package io.worldflow.world.jdbc;

import java.sql.SQLException;

/** Work done with a connection: in a transaction, in autocommit mode, or as a read. */
@FunctionalInterface
public interface SqlWork<T> {

    T run(Tx tx) throws SQLException;
}
