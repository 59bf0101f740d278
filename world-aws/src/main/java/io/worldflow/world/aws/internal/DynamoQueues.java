package io.worldflow.world.aws.internal;

import io.worldflow.spi.QueueStore;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredQueue;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Queues: one item per queue in the queues table ({@link VersionedItems}), keyed by its name, listed by name through
 * {@code byId}. A queue has no wake time.
 */
final class DynamoQueues implements QueueStore {

    private final VersionedItems items;

    DynamoQueues(Store store) {
        this.items = new VersionedItems(store, store.tables.queues(), "queue");
    }

    @Override
    public boolean create(StoredQueue queue) {
        Objects.requireNonNull(queue, "queue");
        return items.create(stored(queue));
    }

    @Override
    public boolean replace(StoredQueue queue) {
        Objects.requireNonNull(queue, "queue");
        return items.replace(stored(queue));
    }

    @Override
    public boolean delete(String name) {
        return items.delete(name);
    }

    @Override
    public Optional<StoredQueue> get(String name) {
        return items.get(name).map(DynamoQueues::queue);
    }

    @Override
    public List<StoredQueue> list(String afterName, int limit) {
        ScheduleStore.checkLimit(limit);
        return items.list(afterName, limit).stream().map(DynamoQueues::queue).toList();
    }

    private static VersionedItems.Stored stored(StoredQueue q) {
        return new VersionedItems.Stored(q.name(), q.body(), null, q.version(), q.updatedAt());
    }

    private static StoredQueue queue(VersionedItems.Stored s) {
        return new StoredQueue(s.id(), s.body(), s.version(), s.updatedAt());
    }
}
