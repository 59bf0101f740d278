package io.worldflow.world.local;

import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;

/**
 * SQLite's answers: tables by their plain names in the one file, no row locks (the single writer connection makes
 * every write wait for the one before), and text compared as UTF-8 bytes.
 */
enum LocalDialect implements SqlDialect {
    INSTANCE;

    @Override
    public String world() {
        return LocalWorldProvider.NAME;
    }

    @Override
    public String table(String name) {
        return name;
    }

    @Override
    public String lockRow() {
        return "";
    }

    @Override
    public boolean codePointOrder() {
        return true;
    }

    @Override
    public void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        TaskRows.makeDue(tx, runId, queue, priority, at, now);
    }
}
