package io.worldflow.runtime.internal;

import io.worldflow.Payload;
import io.worldflow.ScheduleSpec;
import io.worldflow.WorldflowException;

import java.time.Instant;
import java.util.List;

/**
 * What a schedule is and where it stands, as the world keeps it ({@link io.worldflow.spi.StoredSchedule#body}): its
 * spec (stored without its input, which is kept encoded beside it) and its state. {@code pending} holds what a worker
 * decided and has not yet done for sure (runs to start, previous runs to cancel): whoever reads the schedule next does
 * it again (each action is idempotent) before deciding anything new. {@code changedBy} is who made its last change
 * (create, update, pause, resume, trigger, backfill; {@link io.worldflow.Actors}), null in a body written before it
 * was kept.
 */
record ScheduleBody(
        int v,
        ScheduleSpec spec,
        Payload input,
        Instant createdAt,
        boolean paused,
        Instant nextFireAt,
        Instant lastFireAt,
        String lastRunId,
        Instant buffered,
        List<Action> pending,
        String changedBy) {

    /** The body's own format version. */
    static final int VERSION = 1;

    ScheduleBody {
        spec = spec.withInput(null);
        pending = pending == null ? List.of() : List.copyOf(pending);
    }

    /**
     * Something a fire decided: start the run of a fire time (a fire time of the schedule's own, after its jitter; one
     * asked for by a trigger or a backfill, at once), or cancel or terminate a previous run.
     */
    record Action(Kind kind, Instant fireAt, String runId) {
        enum Kind {
            START,
            START_NOW,
            CANCEL,
            TERMINATE
        }
    }

    static ScheduleBody of(ScheduleSpec spec, Payload input, Instant createdAt) {
        return new ScheduleBody(VERSION, spec, input, createdAt, false, null, null, null, null, List.of(), null);
    }

    /** The spec with its input as stored. */
    ScheduleSpec specWithInput() {
        return spec.withInput(input);
    }

    /** The same state under a new spec (an update). */
    ScheduleBody withSpec(ScheduleSpec newSpec, Payload newInput) {
        return new ScheduleBody(
                v,
                newSpec,
                newInput,
                createdAt,
                paused,
                nextFireAt,
                lastFireAt,
                lastRunId,
                buffered,
                pending,
                changedBy);
    }

    ScheduleBody with(
            boolean paused,
            Instant nextFireAt,
            Instant lastFireAt,
            String lastRunId,
            Instant buffered,
            List<Action> pending) {
        return new ScheduleBody(
                v, spec, input, createdAt, paused, nextFireAt, lastFireAt, lastRunId, buffered, pending, changedBy);
    }

    /** The same, changed last by {@code who}. */
    ScheduleBody changedBy(String who) {
        return new ScheduleBody(
                v, spec, input, createdAt, paused, nextFireAt, lastFireAt, lastRunId, buffered, pending, who);
    }

    ScheduleBody withPending(List<Action> value) {
        return with(paused, nextFireAt, lastFireAt, lastRunId, buffered, value);
    }

    String encode() {
        return StoredText.write(this, "schedule '" + spec.id() + "'");
    }

    static ScheduleBody decode(String id, String text) {
        ScheduleBody b = StoredText.read(text, ScheduleBody.class, "schedule '" + id + "'");
        if (b.v > VERSION) {
            throw new WorldflowException("schedule '" + id + "' was written by a newer Worldflow (body version " + b.v
                    + ", this one reads " + VERSION + ")");
        }
        return b;
    }
}
