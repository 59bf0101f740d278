package io.worldflow.spi;

import java.util.List;
import java.util.Optional;

/**
 * Where a world keeps its queues' settings and state: each queue a versioned record whose writes compare and set.
 * Every worker reads the same records, so that a queue's limits hold across all of them; what the limits mean and how
 * runs are admitted under them is the runtime's part.
 */
public interface QueueStore {

    /**
     * Stores a new queue (its version 1).
     *
     * @return false when a queue with that name exists, which is left as it is
     * @throws IllegalArgumentException when the version is not 1
     */
    boolean create(StoredQueue queue);

    /**
     * Replaces the queue when its stored version is {@code queue.version() - 1}.
     *
     * @return false when it was written meanwhile (another version) or deleted; nothing is changed then
     */
    boolean replace(StoredQueue queue);

    /** @return false when there was no such queue */
    boolean delete(String name);

    Optional<StoredQueue> get(String name);

    /**
     * Queues in name order, after {@code afterName} (null from the first), at most {@code limit}.
     *
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    List<StoredQueue> list(String afterName, int limit);
}
