package io.worldflow.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * A schedule as a world keeps it. The world stores {@code body} as it is given (the runtime writes and reads it) and
 * indexes {@code wakeAt}, the next instant at which a worker must look at the schedule; {@code version} orders the
 * schedule's writes, for {@link ScheduleStore#replace}.
 *
 * @param id        the schedule's id
 * @param body      what the schedule is and where it stands, as text the world does not read
 * @param wakeAt    when a worker must look at it next ({@link ScheduleStore#due}); null for never (paused, ended)
 * @param version   1 when created, one more at each replace
 * @param updatedAt when it was last written
 */
public record StoredSchedule(String id, String body, Instant wakeAt, long version, Instant updatedAt) {

    /** Longest id a world stores. */
    public static final int MAX_ID_LENGTH = 200;

    public StoredSchedule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (id.isBlank() || id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "schedule id must be 1.." + MAX_ID_LENGTH + " characters and not blank, was '" + id + "'");
        }
        if (version < 1) {
            throw new IllegalArgumentException("schedule version must be at least 1, was " + version);
        }
    }

    /** The next version of this schedule: what a {@link ScheduleStore#replace} writes. */
    public StoredSchedule next(String newBody, Instant newWakeAt, Instant now) {
        return new StoredSchedule(id, newBody, newWakeAt, version + 1, now);
    }
}
