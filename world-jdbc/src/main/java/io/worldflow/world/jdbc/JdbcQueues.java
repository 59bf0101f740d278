package io.worldflow.world.jdbc;

import io.worldflow.spi.QueueStore;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredQueue;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Queues in a SQL world: a row each in {@code queues}. */
final class JdbcQueues implements QueueStore {

    private final VersionedRows rows;

    JdbcQueues(SqlDatabase db) {
        this.rows = new VersionedRows(db, "{queues}", "queue", false);
    }

    @Override
    public boolean create(StoredQueue q) {
        Objects.requireNonNull(q, "queue");
        if (q.version() != 1) {
            throw new IllegalArgumentException("a new queue's version must be 1, was " + q.version());
        }
        return rows.create(q.name(), q.body(), null, q.updatedAt());
    }

    @Override
    public boolean replace(StoredQueue q) {
        Objects.requireNonNull(q, "queue");
        return rows.replace(q.name(), q.body(), null, q.version(), q.updatedAt());
    }

    @Override
    public boolean delete(String name) {
        return rows.delete(name);
    }

    @Override
    public Optional<StoredQueue> get(String name) {
        return rows.get(name).map(JdbcQueues::queue);
    }

    @Override
    public List<StoredQueue> list(String afterName, int limit) {
        ScheduleStore.checkLimit(limit);
        return rows.list(afterName, limit).stream().map(JdbcQueues::queue).toList();
    }

    private static StoredQueue queue(VersionedRows.Row r) {
        return new StoredQueue(r.id(), r.body(), r.version(), r.updatedAt());
    }
}
