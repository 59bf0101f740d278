package io.worldflow.world.jdbc;

import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredSchedule;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Schedules in a SQL world: a row each in {@code schedules}, the due ones found by their wake time. */
final class JdbcSchedules implements ScheduleStore {

    private final VersionedRows rows;

    JdbcSchedules(SqlDatabase db) {
        this.rows = new VersionedRows(db, "{schedules}", "schedule", true);
    }

    @Override
    public boolean create(StoredSchedule s) {
        Objects.requireNonNull(s, "schedule");
        if (s.version() != 1) {
            throw new IllegalArgumentException("a new schedule's version must be 1, was " + s.version());
        }
        return rows.create(s.id(), s.body(), s.wakeAt(), s.updatedAt());
    }

    @Override
    public boolean replace(StoredSchedule s) {
        Objects.requireNonNull(s, "schedule");
        return rows.replace(s.id(), s.body(), s.wakeAt(), s.version(), s.updatedAt());
    }

    @Override
    public List<Boolean> replaceAll(List<StoredSchedule> schedules) {
        if (schedules.isEmpty()) {
            return List.of();
        }
        return rows.replaceAll(schedules.stream()
                .map(s -> new VersionedRows.Row(s.id(), s.body(), s.wakeAt(), s.version(), s.updatedAt()))
                .toList());
    }

    @Override
    public boolean delete(String id) {
        return rows.delete(id);
    }

    @Override
    public Optional<StoredSchedule> get(String id) {
        return rows.get(id).map(JdbcSchedules::schedule);
    }

    @Override
    public List<StoredSchedule> list(String afterId, int limit) {
        ScheduleStore.checkLimit(limit);
        return rows.list(afterId, limit).stream().map(JdbcSchedules::schedule).toList();
    }

    @Override
    public List<StoredSchedule> due(Instant until, int limit) {
        Objects.requireNonNull(until, "until");
        ScheduleStore.checkLimit(limit);
        return rows.due(until, limit).stream().map(JdbcSchedules::schedule).toList();
    }

    private static StoredSchedule schedule(VersionedRows.Row r) {
        return new StoredSchedule(r.id(), r.body(), r.wakeAt(), r.version(), r.updatedAt());
    }
}
