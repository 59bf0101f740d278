package io.worldflow.world.postgres;

import org.jooq.DSLContext;

import java.time.Instant;

/**
 * SQL in progress on one pooled connection: a transaction ({@link Database#write}) or single statements
 * in autocommit mode ({@link Database#autocommit}). Besides running SQL it collects the earliest instant at
 * which the work makes a turn due, so that subscribers can be told once it has committed.
 */
final class Tx {

    final DSLContext sql;
    private Instant wake;

    Tx(DSLContext sql) {
        this.sql = sql;
    }

    /** Notes that a turn becomes due at {@code at} once this work commits. */
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
