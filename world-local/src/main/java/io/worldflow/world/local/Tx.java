package io.worldflow.world.local;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The write transaction in progress. Besides running SQL it collects the earliest instant at which the
 * transaction makes a turn due, so that subscribers can be told once it has committed.
 */
final class Tx implements Statements {

    private final SqlSession session;
    private Instant wake;

    Tx(SqlSession session) {
        this.session = session;
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
        return session.prepare(sql);
    }

    /** Notes that a turn becomes due at {@code at} once this transaction commits. */
    void wakeAt(Instant at) {
        if (at != null && (wake == null || at.isBefore(wake))) {
            wake = at;
        }
    }

    /** The earliest due instant noted, or null. */
    Instant wake() {
        return wake;
    }
}
