package io.worldflow.world.local;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Where SQL runs: a read connection or the write transaction. */
interface Statements {

    /**
     * A prepared statement for {@code sql}, cached for reuse on this connection: the caller closes the
     * result sets it opens, never the statement.
     */
    PreparedStatement prepare(String sql) throws SQLException;
}
