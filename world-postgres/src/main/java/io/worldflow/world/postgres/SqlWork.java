package io.worldflow.world.postgres;

import java.sql.SQLException;

/** Work done with a connection: in a transaction, in autocommit mode, or as a read. */
@FunctionalInterface
interface SqlWork<S, T> {

    T run(S session) throws SQLException;
}
