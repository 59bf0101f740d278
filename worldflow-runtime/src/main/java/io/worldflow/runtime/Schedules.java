package io.worldflow.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.worldflow.ScheduleExistsException;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleNotFoundException;
import io.worldflow.ScheduleSpec;
import io.worldflow.annotation.Scheduled;
import io.worldflow.runtime.internal.Registry;
import io.worldflow.runtime.internal.ScheduleLoop;
import io.worldflow.runtime.internal.ScheduleRunner;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The schedules of a {@link Worldflow}'s world ({@link Worldflow#schedules()}): durable, shared by every worker of the
 * world, each fire time starting one run however many workers are up. A spec that cannot be a schedule (a cron
 * expression Quartz does not read, an unknown time zone, an end before its start, a workflow this Worldflow does not
 * register) is refused when it is given, naming what is wrong, and nothing is stored.
 */
public final class Schedules {

    private final ScheduleRunner runner;
    private final Registry registry;
    private volatile ScheduleLoop loop;

    Schedules(ScheduleRunner runner, Registry registry) {
        this.runner = runner;
        this.registry = registry;
    }

    ScheduleRunner runner() {
        return runner;
    }

    void firedBy(ScheduleLoop value) {
        this.loop = value;
    }

    /**
     * Stores a new schedule; its first fire time is the first after now.
     *
     * @throws ScheduleExistsException  when a schedule of that id exists (it is left as it is)
     * @throws IllegalArgumentException when the spec cannot be a schedule (nothing is stored)
     */
    public ScheduleInfo create(ScheduleSpec spec) {
        check(spec);
        return looked(runner.create(spec));
    }

    /**
     * Gives a schedule a new spec, keeping whether it is paused and its last run; its next fire time is the new spec's
     * first after now.
     *
     * @throws ScheduleNotFoundException when there is no such schedule
     */
    public ScheduleInfo update(ScheduleSpec spec) {
        check(spec);
        return looked(runner.update(spec));
    }

    /**
     * Stores the schedule as {@code spec} says, creating it or changing it; a schedule that already is as it says is
     * not written at all, so that many workers starting at once with the same declaration write it once.
     */
    public ScheduleInfo ensure(ScheduleSpec spec) {
        check(spec);
        ScheduleInfo current = runner.find(spec.id()).orElse(null);
        if (current != null && runner.sameSpec(current, spec)) {
            return current;
        }
        return looked(runner.createOrUpdate(spec));
    }

    /** Pauses a schedule: it starts nothing until resumed. */
    public ScheduleInfo pause(String id) {
        return runner.pause(Objects.requireNonNull(id, "id"));
    }

    /** Resumes a paused schedule from its next fire time after now; what it missed while paused starts nothing. */
    public ScheduleInfo resume(String id) {
        return looked(runner.resume(Objects.requireNonNull(id, "id")));
    }

    /** @throws ScheduleNotFoundException when there is no such schedule */
    public void delete(String id) {
        runner.delete(Objects.requireNonNull(id, "id"));
    }

    /**
     * Starts a run now, as if now were a fire time: the overlap policy applies, paused or not.
     *
     * @return the run it started; empty when the overlap policy started none (a previous run still runs)
     */
    public Optional<String> trigger(String id) {
        return runner.trigger(Objects.requireNonNull(id, "id"));
    }

    /**
     * Starts a run for each of the schedule's fire times in {@code [from, to]}, whatever its overlap policy; a fire
     * time that has started its run already starts nothing more.
     *
     * @return the ids of the runs of those fire times
     * @throws IllegalArgumentException when {@code to} is before {@code from} or the range holds more than
     *                                  {@value ScheduleRunner#MAX_BACKFILL} fire times (nothing is started)
     */
    public List<String> backfill(String id, Instant from, Instant to) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        return runner.backfill(id, from, to);
    }

    /** @throws ScheduleNotFoundException when there is no such schedule */
    public ScheduleInfo describe(String id) {
        return runner.describe(Objects.requireNonNull(id, "id"));
    }

    /** Schedules in id order after {@code afterId} (null from the first), at most {@code limit}. */
    public List<ScheduleInfo> list(String afterId, int limit) {
        return runner.list(afterId, limit);
    }

    /** Every schedule, in id order. */
    public List<ScheduleInfo> list() {
        List<ScheduleInfo> all = new ArrayList<>();
        for (List<ScheduleInfo> page = list(null, 500);
                !page.isEmpty();
                page = list(page.getLast().id(), 500)) {
            all.addAll(page);
        }
        return all;
    }

    /**
     * The spec a {@link Scheduled} annotation declares: its input read from its JSON as the workflow method's parameter
     * type, its interval from ISO-8601; each refused naming the schedule and the attribute.
     */
    static ScheduleSpec declared(Registry.DeclaredSchedule d, JsonCodec codec) {
        Scheduled s = d.annotation();
        Object input;
        try {
            input = codec.payloadMapper().readValue(s.input(), d.inputType());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "schedule '" + s.id() + "': input " + s.input() + " is not JSON of "
                            + d.inputType().getName() + ": " + e.getOriginalMessage(),
                    e);
        }
        Duration every = null;
        if (!s.every().isEmpty()) {
            try {
                every = Duration.parse(s.every());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        "schedule '" + s.id() + "': every '" + s.every()
                                + "' is not an ISO-8601 duration such as PT15M",
                        e);
            }
        }
        ScheduleSpec spec = every != null
                ? ScheduleSpec.every(s.id(), every, d.workflow(), input)
                : ScheduleSpec.cron(s.id(), s.cron().isEmpty() ? null : s.cron(), d.workflow(), input);
        if (every != null && !s.cron().isEmpty()) {
            throw new IllegalArgumentException(
                    "schedule '" + s.id() + "': give either a cron expression or an interval (every), not both");
        }
        return spec.inZone(s.zone()).withOverlap(s.overlap()).withCatchUp(s.catchUp(), spec.catchUpWindow());
    }

    private void check(ScheduleSpec spec) {
        Objects.requireNonNull(spec, "spec");
        if (registry.find(spec.workflow()).isEmpty()) {
            throw new IllegalArgumentException("schedule '" + spec.id() + "': workflow '" + spec.workflow()
                    + "' is not registered with this Worldflow");
        }
    }

    /** A change the firing worker of this process should look at now rather than at its next look. */
    private ScheduleInfo looked(ScheduleInfo info) {
        ScheduleLoop l = loop;
        if (l != null) {
            l.poke();
        }
        return info;
    }
}
