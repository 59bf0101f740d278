package io.worldflow.runtime.internal;

import io.worldflow.ScheduleSpec;
import org.quartz.CronExpression;

import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;

/**
 * A schedule's fire times: those of its Quartz cron expression in its time zone (Quartz's calendar decides what a
 * daylight-saving change does to them), or every interval from its start, within its start and end.
 */
final class FireTimes {

    private final ScheduleSpec spec;
    private final CronExpression cron;
    private final Instant anchor;

    /**
     * @param createdAt where an interval without a start counts from (its whole second)
     * @throws IllegalArgumentException when the cron expression is not one Quartz reads, naming it and why
     */
    FireTimes(ScheduleSpec spec, Instant createdAt) {
        this.spec = spec;
        // without a start, from the whole second it was created in: fire times name the runs they start
        // (<schedule>@<fire time>), and whole seconds, as a cron's are, read better than nanoseconds
        this.anchor = spec.startAt() != null ? spec.startAt() : createdAt.truncatedTo(ChronoUnit.SECONDS);
        this.cron = spec.cron() == null ? null : parse(spec);
    }

    private static CronExpression parse(ScheduleSpec spec) {
        try {
            CronExpression c = new CronExpression(spec.cron());
            c.setTimeZone(TimeZone.getTimeZone(spec.zone()));
            return c;
        } catch (ParseException e) {
            throw new IllegalArgumentException(
                    "schedule '" + spec.id() + "': cron expression '" + spec.cron() + "' is not valid: "
                            + e.getMessage(),
                    e);
        }
    }

    /** The first fire time strictly after {@code t}, or null when there is none (past the end, or never). */
    Instant after(Instant t) {
        Instant from = t;
        if (spec.startAt() != null && from.isBefore(spec.startAt())) {
            from = spec.startAt().minusMillis(1);
        }
        Instant next = cron != null ? cronAfter(from) : intervalAfter(from);
        return next == null || (spec.endAt() != null && next.isAfter(spec.endAt())) ? null : next;
    }

    /** The fire times in {@code (from, to]}, oldest first, at most {@code max}. */
    List<Instant> between(Instant from, Instant to, int max) {
        List<Instant> out = new ArrayList<>();
        for (Instant t = after(from); t != null && !t.isAfter(to) && out.size() < max; t = after(t)) {
            out.add(t);
        }
        return out;
    }

    /** The next {@code n} fire times from {@code first} on (itself included when it is one). */
    List<Instant> upcoming(Instant first, int n) {
        List<Instant> out = new ArrayList<>();
        for (Instant t = first; t != null && out.size() < n; t = after(t)) {
            out.add(t);
        }
        return out;
    }

    private Instant cronAfter(Instant t) {
        Date next = cron.getNextValidTimeAfter(Date.from(t));
        return next == null ? null : next.toInstant();
    }

    private Instant intervalAfter(Instant t) {
        if (t.isBefore(anchor)) {
            // a start given is a fire time; without one the first is an interval after the schedule was created
            return spec.startAt() != null ? anchor : anchor.plus(spec.every());
        }
        Duration every = spec.every();
        long periods = Duration.between(anchor, t).dividedBy(every) + 1;
        return anchor.plus(every.multipliedBy(periods));
    }
}
