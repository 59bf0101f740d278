package io.worldflow;

import java.time.Instant;
import java.util.List;

/**
 * A schedule as it stands.
 *
 * @param spec       what it starts and when (its input as stored: a {@link Payload})
 * @param paused     whether it is paused: it starts nothing until resumed
 * @param nextFireAt its next fire time, or null when it has none (paused, or past its end)
 * @param upcoming   its next few fire times, from {@code nextFireAt}
 * @param lastFireAt the last fire time that started (or was to start) a run, or null
 * @param lastRunId  the run that fire time started, or null
 * @param buffered   a fire time waiting for the previous run to end ({@link OverlapPolicy#BUFFER_ONE}), or null
 * @param createdAt  when it was created
 * @param updatedAt  when it last changed
 * @param changedBy  who made its last change: created, updated, paused, resumed, triggered or backfilled it
 *                   ({@link Actors}); null when not known (a schedule not changed since this was kept)
 */
public record ScheduleInfo(
        ScheduleSpec spec,
        boolean paused,
        Instant nextFireAt,
        List<Instant> upcoming,
        Instant lastFireAt,
        String lastRunId,
        Instant buffered,
        Instant createdAt,
        Instant updatedAt,
        String changedBy) {

    public ScheduleInfo {
        upcoming = List.copyOf(upcoming);
    }

    public String id() {
        return spec.id();
    }
}
