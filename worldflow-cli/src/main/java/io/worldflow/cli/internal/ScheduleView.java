package io.worldflow.cli.internal;

import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;

import java.time.Instant;
import java.util.List;

/**
 * A schedule as the command shows it, the same whether read from the world or from a dashboard.
 *
 * @param cron  its Quartz cron expression, or null for an interval
 * @param every its interval as ISO-8601 ({@code PT15M}), or null for a cron expression
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
        String changedBy) {

    public ScheduleView {
        upcoming = upcoming == null ? List.of() : List.copyOf(upcoming);
    }

    static ScheduleView of(ScheduleInfo s) {
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
                s.changedBy());
    }
}
