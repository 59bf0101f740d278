package io.worldflow.world.local;

import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;

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

    /** SQLite has no arrays: the texts travel as one JSON array, which {@code json_each} reads as a table. */
    @Override
    public String inTexts(String param) {
        return " IN (SELECT value FROM json_each(" + param + "))";
    }

    @Override
    public Object texts(Collection<String> values) {
        StringBuilder json = new StringBuilder("[");
        for (String value : values) {
            json.append(json.length() == 1 ? "\"" : ",\"");
            value.chars()
                    .forEach(c -> json.append(
                            c == '"' || c == '\\'
                                    ? "\\" + (char) c
                                    : c < 0x20 ? "\\u%04x".formatted(c) : String.valueOf((char) c)));
            json.append('"');
        }
        return json.append(']').toString();
    }

    @Override
    public void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        TaskRows.makeDue(tx, runId, queue, priority, at, now);
    }
}
