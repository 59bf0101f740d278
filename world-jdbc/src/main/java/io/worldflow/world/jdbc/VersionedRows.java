package io.worldflow.world.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Records the runtime writes whole and the world does not read, a row each, written by compare and set on its version:
 * schedules (found by their wake time through an index that holds only the rows with one) and queues. Every statement
 * is one both databases say alike.
 */
final class VersionedRows {

    /** A row: its id, the runtime's text, its wake time (null for none, or in a table without one), version, time. */
    record Row(String id, String body, Instant wakeAt, long version, Instant updatedAt) {}

    private final SqlDatabase db;
    private final String noun;
    private final Sql insert;
    private final Sql replace;
    private final Sql delete;
    private final Sql get;
    private final Sql first;
    private final Sql after;
    private final Sql due;

    /**
     * @param table the table, as {@link SqlDialect#tables} names it ({@code {schedules}})
     * @param noun  what a row is, for error messages
     * @param wake  whether the table has a {@code wake_at} column
     */
    VersionedRows(SqlDatabase db, String table, String noun, boolean wake) {
        this.db = db;
        this.noun = noun;
        SqlDialect d = db.dialect();
        String columns = "id, body, " + (wake ? "wake_at" : "NULL") + ", version, updated_at";
        this.insert = Sql.of(d.tables("INSERT INTO " + table + " (id, body, " + (wake ? "wake_at, " : "")
                + "version, updated_at) VALUES (:id, :body, " + (wake ? ":wakeAt, " : "")
                + "1, :updatedAt) ON CONFLICT (id) DO NOTHING"));
        this.replace = Sql.of(d.tables("UPDATE " + table + " SET body = :body, " + (wake ? "wake_at = :wakeAt, " : "")
                + "version = :version, updated_at = :updatedAt WHERE id = :id AND version = :expected"));
        this.delete = Sql.of(d.tables("DELETE FROM " + table + " WHERE id = :id"));
        this.get = Sql.of(d.tables("SELECT " + columns + " FROM " + table + " WHERE id = :id"));
        this.first = Sql.of(d.tables("SELECT " + columns + " FROM " + table + " ORDER BY id LIMIT :limit"));
        this.after = Sql.of(
                d.tables("SELECT " + columns + " FROM " + table + " WHERE id > :after ORDER BY id LIMIT :limit"));
        this.due = wake
                ? Sql.of(d.tables("SELECT " + columns + " FROM " + table
                        + " WHERE wake_at IS NOT NULL AND wake_at <= :until ORDER BY wake_at, id LIMIT :limit"))
                : null;
    }

    /** A new row, version 1; false when the id exists. */
    boolean create(String id, String body, Instant wakeAt, Instant updatedAt) {
        return db.write("create " + noun, id, tx -> {
            Sql.Call call = tx.call(insert).set("id", id).set("body", body);
            if (due != null) {
                call.set("wakeAt", Micros.orNull(wakeAt));
            }
            return call.set("updatedAt", Micros.of(updatedAt)).update() > 0;
        });
    }

    /** The row at {@code version}, when it is at {@code version - 1}. */
    boolean replace(String id, String body, Instant wakeAt, long version, Instant updatedAt) {
        return db.write("replace " + noun, id, tx -> {
            Sql.Call call = tx.call(replace).set("body", body);
            if (due != null) {
                call.set("wakeAt", Micros.orNull(wakeAt));
            }
            return call.set("version", version)
                            .set("updatedAt", Micros.of(updatedAt))
                            .set("id", id)
                            .set("expected", version - 1)
                            .update()
                    > 0;
        });
    }

    /** Each row at its version, when it is at the one before, in one transaction; whether each was replaced. */
    List<Boolean> replaceAll(List<Row> rows) {
        return db.write("replace " + noun + "s", rows.size() + " " + noun + "s", tx -> {
            List<Boolean> replaced = new java.util.ArrayList<>(rows.size());
            for (Row r : rows) {
                Sql.Call call = tx.call(replace).set("body", r.body());
                if (due != null) {
                    call.set("wakeAt", Micros.orNull(r.wakeAt()));
                }
                replaced.add(call.set("version", r.version())
                                .set("updatedAt", Micros.of(r.updatedAt()))
                                .set("id", r.id())
                                .set("expected", r.version() - 1)
                                .update()
                        > 0);
            }
            return replaced;
        });
    }

    boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        return db.write(
                "delete " + noun, id, tx -> tx.call(delete).set("id", id).update() > 0);
    }

    Optional<Row> get(String id) {
        Objects.requireNonNull(id, "id");
        return db.read("read " + noun, id, tx -> tx.call(get).set("id", id).one(VersionedRows::row));
    }

    List<Row> list(String afterId, int limit) {
        return db.read(
                "list " + noun + "s",
                afterId,
                tx -> afterId == null
                        ? tx.call(first).set("limit", limit).list(VersionedRows::row)
                        : tx.call(after)
                                .set("after", afterId)
                                .set("limit", limit)
                                .list(VersionedRows::row));
    }

    /** Rows whose wake time is at or before {@code until}, earliest first. */
    List<Row> due(Instant until, int limit) {
        return db.read(
                "due " + noun + "s",
                null,
                tx -> tx.call(due)
                        .set("until", Micros.of(until))
                        .set("limit", limit)
                        .list(VersionedRows::row));
    }

    private static Row row(ResultSet rs) throws SQLException {
        long wake = rs.getLong(3);
        Instant wakeAt = rs.wasNull() ? null : Micros.toInstant(wake);
        return new Row(rs.getString(1), rs.getString(2), wakeAt, rs.getLong(4), Micros.toInstant(rs.getLong(5)));
    }
}
