package io.worldflow.cli.internal;

import io.worldflow.RunInfo;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;

import java.time.Instant;
import java.util.List;

/**
 * A schedule as the command shows it, the same whether read from the world or from a dashboard.
 *
 * @param cron  its Quartz cron expression, or null for an interval
 * @param every its interval as ISO-8601 ({@code PT15M}), or null for a cron expression
 * @param lastRunStatus the status of the run its last fire time started, or null when there is none or it is gone
 * @param lastRunHeld   why that run is held, or null: held, it stops a schedule that waits for its previous run
 */
public record ScheduleView(
        String id,
        String workflow,
        String cron,
        String every,
        String zone,
        String overlap,
        boolean paused,
        Instant nextFireAt,
        List<Instant> upcoming,
        Instant lastFireAt,
        String lastRunId,
        String lastRunStatus,
        String lastRunHeld,
        String changedBy) {

    public ScheduleView {
        upcoming = upcoming == null ? List.of() : List.copyOf(upcoming);
    }

    /** {@code s}, with {@code lastRun}: the run its last fire time started, as it stands (null: none, or gone). */
    static ScheduleView of(ScheduleInfo s, RunInfo lastRun) {
        ScheduleSpec spec = s.spec();
        return new ScheduleView(
                spec.id(),
                spec.workflow(),
                spec.cron(),
                spec.every() == null ? null : spec.every().toString(),
                spec.zone().getId(),
                spec.overlap().name(),
                s.paused(),
                s.nextFireAt(),
                s.upcoming(),
                s.lastFireAt(),
                s.lastRunId(),
                lastRun == null ? null : lastRun.status().name(),
                lastRun == null || lastRun.held() == null
                        ? null
                        : lastRun.held().message(),
                s.changedBy());
    }
}
