package io.worldflow.world.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Edits of a run's stored log made directly in the {@code runs} and {@code event_log} tables of an SQL world, behind
 * its back, as someone with access to the database could: what the conformance kit's chain contract must see found.
 * Each names a log row by the seq it begins at.
 *
 * @param c    a connection to the world's database
 * @param runs the {@code runs} table's name as the connection reaches it
 * @param log  the {@code event_log} table's name
 */
public record LogRowTamper(Connection c, String runs, String log) {

    /**
     * The edit the conformance kit names ({@code WorldConformanceKit.Tamper}, by its constant's name) of the row
     * beginning at {@code seq}.
     */
    public void apply(String how, String runId, long seq) throws SQLException {
        switch (how) {
            case "CHANGE_BYTE" -> changeByte(runId, seq);
            case "DELETE_RECORD" -> deleteRecord(runId, seq);
            case "SWAP_WITH_NEXT" -> swapWithNext(runId, seq);
            case "TRUNCATE_TAIL" -> truncateTail(runId);
            case "ROLL_BACK_HEAD" -> rollBackHead(runId, seq);
            case "STRIP_LINKS" -> stripLinks(runId, seq);
            case "FORGE_STATUS" -> update("UPDATE " + runs + " SET status = 'FAILED' WHERE run_id = ?", runId);
            case "FORGE_OUTPUT" -> update("UPDATE " + runs + " SET output_json = '\"forged\"' WHERE run_id = ?", runId);
            case "FORGE_INPUT" -> update("UPDATE " + runs + " SET input_json = '\"forged\"' WHERE run_id = ?", runId);
            case "FORGE_ATTRIBUTES" -> forgeAttributes(runId);
            default -> throw new IllegalArgumentException("no such edit: " + how);
        }
    }

    /** One character in the middle of the row's events replaced by another, so its length stays. */
    public void changeByte(String runId, long seq) throws SQLException {
        String events = one("SELECT events FROM " + log + " WHERE run_id = ? AND seq = ?", runId, seq);
        int at = events.length() / 2;
        char changed = events.charAt(at) == '1' ? '2' : '1';
        update(
                "UPDATE " + log + " SET events = ? WHERE run_id = ? AND seq = ?",
                events.substring(0, at) + changed + events.substring(at + 1),
                runId,
                seq);
    }

    public void deleteRecord(String runId, long seq) throws SQLException {
        update("DELETE FROM " + log + " WHERE run_id = ? AND seq = ?", runId, seq);
    }

    /** The row's events and link exchanged with the next row's, each row keeping its seq range. */
    public void swapWithNext(String runId, long seq) throws SQLException {
        long next = Long.parseLong(
                one("SELECT CAST(MIN(seq) AS TEXT) FROM " + log + " WHERE run_id = ? AND seq > ?", runId, seq));
        try (PreparedStatement read =
                c.prepareStatement("SELECT events, link FROM " + log + " WHERE run_id = ? AND seq = ?")) {
            Object[][] rows = new Object[2][];
            long[] at = {seq, next};
            for (int i = 0; i < 2; i++) {
                read.setString(1, runId);
                read.setLong(2, at[i]);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    rows[i] = new Object[] {rs.getString(1), rs.getBytes(2)};
                }
            }
            for (int i = 0; i < 2; i++) {
                Object[] other = rows[1 - i];
                update(
                        "UPDATE " + log + " SET events = ?, link = ? WHERE run_id = ? AND seq = ?",
                        other[0],
                        other[1],
                        runId,
                        at[i]);
            }
        }
    }

    /** The run's last row removed, its length and head left as they were. */
    public void truncateTail(String runId) throws SQLException {
        update(
                "DELETE FROM " + log + " WHERE run_id = ? AND seq = (SELECT MAX(seq) FROM " + log
                        + " WHERE run_id = ?)",
                runId,
                runId);
    }

    /** The run's head set to the link of the row beginning at {@code seq}. */
    public void rollBackHead(String runId, long seq) throws SQLException {
        update(
                "UPDATE " + runs + " SET head = (SELECT link FROM " + log + " WHERE run_id = ? AND seq = ?)"
                        + " WHERE run_id = ?",
                runId,
                seq,
                runId);
    }

    /** Every row's link and the run's head removed, then one character of the row at {@code seq} changed. */
    public void stripLinks(String runId, long seq) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + log + " SET link = NULL WHERE run_id = ?")) {
            ps.setString(1, runId);
            if (ps.executeUpdate() < 2) {
                throw new IllegalStateException("run " + runId + " has fewer than two log rows");
            }
        }
        // Postgres keeps the link of the run's first record in its row, beside the record itself
        update(
                "UPDATE " + runs + " SET head = NULL" + (hasColumn(runs, "started_link") ? ", started_link = NULL" : "")
                        + " WHERE run_id = ?",
                runId);
        changeByte(runId, seq);
    }

    /** The run's attributes, as its row keeps them and as searches find them, set to {@code customer=forged}. */
    public void forgeAttributes(String runId) throws SQLException {
        update("UPDATE " + runs + " SET search_attributes = '{\"customer\":\"s:forged\"}' WHERE run_id = ?", runId);
        String attributes = log.replace("event_log", "run_attributes");
        update("UPDATE " + attributes + " SET value = 's:forged' WHERE run_id = ? AND name = 'customer'", runId);
    }

    private boolean hasColumn(String table, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + table + " WHERE 1 = 0");
                ResultSet rs = ps.executeQuery()) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                if (rs.getMetaData().getColumnName(i).equalsIgnoreCase(column)) {
                    return true;
                }
            }
            return false;
        }
    }

    private String one(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    throw new IllegalStateException("nothing found by " + sql);
                }
                return rs.getString(1);
            }
        }
    }

    private void update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("not exactly one row changed by " + sql);
            }
        }
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
    }
}
