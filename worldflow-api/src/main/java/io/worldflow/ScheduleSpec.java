package io.worldflow;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * What a schedule starts and when: a run of {@code workflow} with {@code input} at each fire time of a cron expression
 * (Quartz's syntax, seconds first: {@code "0 0 2 * * ?"} is every day at 02:00) in a time zone, or every fixed
 * interval from {@code startAt} (or from when the schedule is created). Build one with {@link #cron} or {@link #every}
 * and the {@code with…} methods; each checks its value and names the field it refuses.
 *
 * @param id            the schedule's id: each run it starts is {@code <id>@<fire time>}, so a fire time starts one run
 * @param workflow      the name of the workflow to start
 * @param input         the input of each run
 * @param cron          a Quartz cron expression, or null for an interval
 * @param every         the interval, or null for a cron expression
 * @param zone          the time zone the cron expression reads its fields in (daylight saving included)
 * @param startAt       no fire time before this, or null; an interval counts from it
 * @param endAt         no fire time after this, or null
 * @param jitter        each run starts up to this much after its fire time, the same delay for the same fire time
 * @param overlap       what a fire time does while the previous run has not finished
 * @param catchUp       what the schedule does with fire times missed while no worker was up
 * @param catchUpWindow how old a missed fire time may be and still start a run
 * @param queue         the queue of the runs, or null for the default
 * @param priority      the priority of the runs
 * @param searchAttributes the search attributes each run starts with; empty for none
 */
public record ScheduleSpec(
        String id,
        String workflow,
        Object input,
        String cron,
        Duration every,
        ZoneId zone,
        Instant startAt,
        Instant endAt,
        Duration jitter,
        OverlapPolicy overlap,
        CatchUpPolicy catchUp,
        Duration catchUpWindow,
        String queue,
        int priority,
        SearchAttributes searchAttributes) {

    /** Longest schedule id. */
    public static final int MAX_ID_LENGTH = 100;
    /** The shortest interval. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    /** The catch-up window unless one is given. */
    public static final Duration DEFAULT_CATCH_UP_WINDOW = Duration.ofDays(1);

    public ScheduleSpec {
        if (id == null || id.isBlank() || id.length() > MAX_ID_LENGTH || id.contains("@")) {
            throw new IllegalArgumentException("schedule id must be 1.." + MAX_ID_LENGTH
                    + " characters, not blank and without '@', was " + (id == null ? "null" : "'" + id + "'"));
        }
        if (workflow == null || workflow.isBlank()) {
            throw new IllegalArgumentException("schedule '" + id + "': workflow must be named");
        }
        if ((cron == null) == (every == null)) {
            throw new IllegalArgumentException(
                    "schedule '" + id + "': give either a cron expression or an interval (every), not "
                            + (cron == null ? "neither" : "both"));
        }
        if (cron != null && cron.isBlank()) {
            throw new IllegalArgumentException("schedule '" + id + "': cron expression is blank");
        }
        if (every != null && every.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException(
                    "schedule '" + id + "': every must be at least " + MIN_INTERVAL + ", was " + every);
        }
        Objects.requireNonNull(zone, "zone");
        if (startAt != null && endAt != null && !endAt.isAfter(startAt)) {
            throw new IllegalArgumentException(
                    "schedule '" + id + "': endAt " + endAt + " must be after startAt " + startAt);
        }
        if (jitter == null || jitter.isNegative()) {
            throw new IllegalArgumentException("schedule '" + id + "': jitter must be zero or more, was " + jitter);
        }
        if (every != null && jitter.compareTo(every) >= 0) {
            // a run delayed past the next fire time would overlap it, and the overlap policy would drop fire times
            throw new IllegalArgumentException(
                    "schedule '" + id + "': jitter must be less than the interval (" + every + "), was " + jitter);
        }
        Objects.requireNonNull(overlap, "overlap");
        Objects.requireNonNull(catchUp, "catchUp");
        if (catchUpWindow == null || catchUpWindow.isNegative() || catchUpWindow.isZero()) {
            throw new IllegalArgumentException(
                    "schedule '" + id + "': catchUpWindow must be positive, was " + catchUpWindow);
        }
        if (queue != null && queue.isBlank()) {
            throw new IllegalArgumentException("schedule '" + id + "': queue must not be blank");
        }
        searchAttributes = searchAttributes == null ? SearchAttributes.empty() : searchAttributes;
    }

    /** A schedule whose runs start without search attributes. */
    public ScheduleSpec(
            String id,
            String workflow,
            Object input,
            String cron,
            Duration every,
            ZoneId zone,
            Instant startAt,
            Instant endAt,
            Duration jitter,
            OverlapPolicy overlap,
            CatchUpPolicy catchUp,
            Duration catchUpWindow,
            String queue,
            int priority) {
        this(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                null);
    }

    /**
     * A schedule that starts {@code workflow} with {@code input} at each fire time of a Quartz cron expression, in UTC
     * until {@link #inZone} says otherwise; it skips a fire time while the previous run has not finished, and fires
     * the latest one missed within a day.
     */
    public static <I> ScheduleSpec cron(String id, String expression, Workflow<I, ?> workflow, I input) {
        return cron(id, expression, workflow.name(), input);
    }

    /** {@link #cron(String, String, Workflow, Object)} by the workflow's name. */
    public static ScheduleSpec cron(String id, String expression, String workflow, Object input) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                expression,
                null,
                ZoneOffset.UTC,
                null,
                null,
                Duration.ZERO,
                OverlapPolicy.SKIP,
                CatchUpPolicy.LATEST,
                DEFAULT_CATCH_UP_WINDOW,
                null,
                0,
                null);
    }

    /** A schedule that starts {@code workflow} every {@code interval}, counted from its start; defaults as for cron. */
    public static <I> ScheduleSpec every(String id, Duration interval, Workflow<I, ?> workflow, I input) {
        return every(id, interval, workflow.name(), input);
    }

    /** {@link #every(String, Duration, Workflow, Object)} by the workflow's name. */
    public static ScheduleSpec every(String id, Duration interval, String workflow, Object input) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                null,
                interval,
                ZoneOffset.UTC,
                null,
                null,
                Duration.ZERO,
                OverlapPolicy.SKIP,
                CatchUpPolicy.LATEST,
                DEFAULT_CATCH_UP_WINDOW,
                null,
                0,
                null);
    }

    public ScheduleSpec inZone(ZoneId value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                value,
                startAt,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                searchAttributes);
    }

    /** The time zone by its id ({@code "Europe/Berlin"}); an unknown id is refused, naming it. */
    public ScheduleSpec inZone(String zoneId) {
        try {
            return inZone(ZoneId.of(Objects.requireNonNull(zoneId, "zone")));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "schedule '" + id + "': zone '" + zoneId + "' is not a known time zone (" + e.getMessage() + ")",
                    e);
        }
    }

    public ScheduleSpec startingAt(Instant value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                value,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                searchAttributes);
    }

    public ScheduleSpec endingAt(Instant value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                value,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                searchAttributes);
    }

    public ScheduleSpec withJitter(Duration value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                value,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                searchAttributes);
    }

    public ScheduleSpec withOverlap(OverlapPolicy value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                value,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                searchAttributes);
    }

    public ScheduleSpec withCatchUp(CatchUpPolicy value, Duration window) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                overlap,
                value,
                window,
                queue,
                priority,
                searchAttributes);
    }

    public ScheduleSpec onQueue(String value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                value,
                priority,
                searchAttributes);
    }

    public ScheduleSpec withPriority(int value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                value,
                searchAttributes);
    }

    public ScheduleSpec withInput(Object value) {
        return new ScheduleSpec(
                id,
                workflow,
                value,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                searchAttributes);
    }

    /** Each run starts with the search attributes {@code value} ({@link StartOptions#withSearchAttributes}). */
    public ScheduleSpec withSearchAttributes(SearchAttributes value) {
        return new ScheduleSpec(
                id,
                workflow,
                input,
                cron,
                every,
                zone,
                startAt,
                endAt,
                jitter,
                overlap,
                catchUp,
                catchUpWindow,
                queue,
                priority,
                value);
    }
}
