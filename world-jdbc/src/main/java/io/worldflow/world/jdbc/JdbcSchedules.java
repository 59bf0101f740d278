package io.worldflow.world.jdbc;

import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredSchedule;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Schedules in a SQL world: a row each, written by compare and set on its version, the due ones found through an index
 * that holds only the rows with a wake time. Every statement is one both databases say alike.
 */
final class JdbcSchedules implements ScheduleStore {

    private static final String COLUMNS = "id, body, wake_at, version, updated_at";

    private final SqlDatabase db;
    private final Sql insert;
    private final Sql replace;
    private final Sql delete;
    private final Sql get;
    private final Sql first;
    private final Sql after;
    private final Sql due;

    JdbcSchedules(SqlDatabase db) {
        this.db = db;
        SqlDialect d = db.dialect();
        this.insert = Sql.of(d.tables("""
                INSERT INTO {schedules} (id, body, wake_at, version, updated_at)
                VALUES (:id, :body, :wakeAt, 1, :updatedAt)
                ON CONFLICT (id) DO NOTHING"""));
        this.replace = Sql.of(d.tables("""
                UPDATE {schedules} SET body = :body, wake_at = :wakeAt, version = :version, updated_at = :updatedAt
                WHERE id = :id AND version = :expected"""));
        this.delete = Sql.of(d.tables("DELETE FROM {schedules} WHERE id = :id"));
        this.get = Sql.of(d.tables("SELECT " + COLUMNS + " FROM {schedules} WHERE id = :id"));
        this.first = Sql.of(d.tables("SELECT " + COLUMNS + " FROM {schedules} ORDER BY id LIMIT :limit"));
        this.after =
                Sql.of(d.tables("SELECT " + COLUMNS + " FROM {schedules} WHERE id > :after ORDER BY id LIMIT :limit"));
        this.due = Sql.of(
                d.tables(
                        "SELECT " + COLUMNS
                                + " FROM {schedules} WHERE wake_at IS NOT NULL AND wake_at <= :until ORDER BY wake_at, id LIMIT :limit"));
    }

    @Override
    public boolean create(StoredSchedule s) {
        Objects.requireNonNull(s, "schedule");
        if (s.version() != 1) {
            throw new IllegalArgumentException("a new schedule's version must be 1, was " + s.version());
        }
        return db.write(
                "create schedule",
                s.id(),
                tx -> tx.call(insert)
                                .set("id", s.id())
                                .set("body", s.body())
                                .set("wakeAt", Micros.orNull(s.wakeAt()))
                                .set("updatedAt", Micros.of(s.updatedAt()))
                                .update()
                        > 0);
    }

    @Override
    public boolean replace(StoredSchedule s) {
        Objects.requireNonNull(s, "schedule");
        return db.write(
                "replace schedule",
                s.id(),
                tx -> tx.call(replace)
                                .set("body", s.body())
                                .set("wakeAt", Micros.orNull(s.wakeAt()))
                                .set("version", s.version())
                                .set("updatedAt", Micros.of(s.updatedAt()))
                                .set("id", s.id())
                                .set("expected", s.version() - 1)
                                .update()
                        > 0);
    }

    @Override
    public boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        return db.write(
                "delete schedule", id, tx -> tx.call(delete).set("id", id).update() > 0);
    }

    @Override
    public Optional<StoredSchedule> get(String id) {
        Objects.requireNonNull(id, "id");
        return db.read("read schedule", id, tx -> tx.call(get).set("id", id).one(JdbcSchedules::row));
    }

    @Override
    public List<StoredSchedule> list(String afterId, int limit) {
        ScheduleStore.checkLimit(limit);
        return db.read(
                "list schedules",
                afterId,
                tx -> afterId == null
                        ? tx.call(first).set("limit", limit).list(JdbcSchedules::row)
                        : tx.call(after)
                                .set("after", afterId)
                                .set("limit", limit)
                                .list(JdbcSchedules::row));
    }

    @Override
    public List<StoredSchedule> due(Instant until, int limit) {
        Objects.requireNonNull(until, "until");
        ScheduleStore.checkLimit(limit);
        return db.read(
                "due schedules",
                null,
                tx -> tx.call(due)
                        .set("until", Micros.of(until))
                        .set("limit", limit)
                        .list(JdbcSchedules::row));
    }

    private static StoredSchedule row(ResultSet rs) throws SQLException {
        long wake = rs.getLong(3);
        Instant wakeAt = rs.wasNull() ? null : Micros.toInstant(wake);
        return new StoredSchedule(
                rs.getString(1), rs.getString(2), wakeAt, rs.getLong(4), Micros.toInstant(rs.getLong(5)));
    }
}
