package io.worldflow.world.postgres;

import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * SQL in progress on one pooled connection: a transaction ({@link Database#write}), single statements in
 * autocommit mode ({@link Database#autocommit}), or reads. Statements rendered once ({@link Sql}) run on
 * the connection directly; queries built per call (filters) run through jOOQ ({@link #dsl()}). Besides
 * running SQL it collects the earliest instant at which the work makes a turn due, so that subscribers can
 * be told once it has committed, and whether that was announced already.
 */
final class Tx {

    private static final Settings JOOQ = new Settings()
            .withExecuteLogging(false)
            .withDiagnosticsLogging(false)
            .withFetchWarnings(false)
            .withRenderFormatted(false);

    private final Connection connection;
    private DSLContext dsl;
    private Instant wake;
    private Instant announced;

    Tx(Connection connection) {
        this.connection = connection;
    }

    /** A call of a statement rendered once. */
    Sql.Call call(Sql sql) throws SQLException {
        return sql.on(connection);
    }

    /** jOOQ on this connection, for statements built per call. */
    DSLContext dsl() {
        if (dsl == null) {
            dsl = DSL.using(connection, SQLDialect.POSTGRES, JOOQ);
        }
        return dsl;
    }

    /** Notes that a turn becomes due at {@code at} once this work commits. */
    void wakeAt(Instant at) {
        if (at != null && (wake == null || at.isBefore(wake))) {
            wake = at;
        }
    }

    /** Notes that a statement of this work announced {@code at} with pg_notify already. */
    void announced(Instant at) {
        wakeAt(at);
        if (at != null && (announced == null || at.isBefore(announced))) {
            announced = at;
        }
    }

    /** The earliest due instant noted, or null. */
    Instant wake() {
        return wake;
    }

    /** Whether the earliest due instant still needs a pg_notify. */
    boolean needsAnnouncement() {
        return wake != null && (announced == null || wake.isBefore(announced));
    }
}
