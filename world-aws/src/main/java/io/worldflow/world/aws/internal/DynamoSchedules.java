package io.worldflow.world.aws.internal;

import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredSchedule;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Schedules: one item per schedule in the schedules table ({@link VersionedItems}), found by id through {@code byId}
 * and by the instant at which a worker must look at it next through {@code byWake}.
 */
final class DynamoSchedules implements ScheduleStore {

    private final VersionedItems items;

    DynamoSchedules(Store store) {
        this.items = new VersionedItems(store, store.tables.schedules(), "schedule");
    }

    @Override
    public boolean create(StoredSchedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        return items.create(stored(schedule));
    }

    @Override
    public boolean replace(StoredSchedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        return items.replace(stored(schedule));
    }

    @Override
    public boolean delete(String id) {
        return items.delete(id);
    }

    @Override
    public Optional<StoredSchedule> get(String id) {
        return items.get(id).map(DynamoSchedules::schedule);
    }

    @Override
    public List<StoredSchedule> list(String afterId, int limit) {
        ScheduleStore.checkLimit(limit);
        return items.list(afterId, limit).stream()
                .map(DynamoSchedules::schedule)
                .toList();
    }

    @Override
    public List<StoredSchedule> due(Instant until, int limit) {
        Objects.requireNonNull(until, "until");
        ScheduleStore.checkLimit(limit);
        return items.due(until, limit).stream().map(DynamoSchedules::schedule).toList();
    }

    private static VersionedItems.Stored stored(StoredSchedule s) {
        return new VersionedItems.Stored(s.id(), s.body(), s.wakeAt(), s.version(), s.updatedAt());
    }

    private static StoredSchedule schedule(VersionedItems.Stored s) {
        return new StoredSchedule(s.id(), s.body(), s.wakeAt(), s.version(), s.updatedAt());
    }
}
