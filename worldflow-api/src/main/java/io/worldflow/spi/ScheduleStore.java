package io.worldflow.spi;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where a world keeps schedules: each one a versioned record whose writes compare and set, found by the instant at
 * which a worker must look at it next. Every worker reads the same records, so that a schedule works the same however
 * many workers are up; that one fire time starts one run is the runtime's part (the run's id derives from the
 * schedule and the fire time, and creating a run is idempotent).
 */
public interface ScheduleStore {

    /**
     * Stores a new schedule (its version 1).
     *
     * @return false when a schedule with that id exists, which is left as it is
     * @throws IllegalArgumentException when the version is not 1
     */
    boolean create(StoredSchedule schedule);

    /**
     * Replaces the schedule when its stored version is {@code schedule.version() - 1}.
     *
     * @return false when it was written meanwhile (another version) or deleted; nothing is changed then
     */
    boolean replace(StoredSchedule schedule);

    /**
     * Replaces each schedule as {@link #replace} does, each on its own compare and set, where the store allows in one
     * write.
     *
     * @return for each schedule, in order, whether it was replaced
     */
    default List<Boolean> replaceAll(List<StoredSchedule> schedules) {
        List<Boolean> replaced = new java.util.ArrayList<>(schedules.size());
        for (StoredSchedule s : schedules) {
            replaced.add(replace(s));
        }
        return replaced;
    }

    /** @return false when there was no such schedule */
    boolean delete(String id);

    Optional<StoredSchedule> get(String id);

    /**
     * Schedules in id order, after {@code afterId} (null from the first), at most {@code limit}.
     *
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    List<StoredSchedule> list(String afterId, int limit);

    /**
     * Schedules whose {@code wakeAt} is at or before {@code until}, earliest first (then by id), at most {@code limit}.
     *
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    List<StoredSchedule> due(Instant until, int limit);

    /** Checks a list or due request's limit, for every world alike. */
    static void checkLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
    }
}
