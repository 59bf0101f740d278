package io.worldflow.event;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a run's append-only event log. Every run's log is dense: {@code seq} = 0, 1, 2, …
 * The JSON form has {@code type} (the record's simple name), {@code seq}, {@code runId}, {@code at}
 * and the record's other fields.
 */
public sealed interface Event
        permits WorkflowStarted,
                WorkflowCompleted,
                WorkflowFailed,
                WorkflowCancelRequested,
                WorkflowCanceled,
                WorkflowRetried,
                WorkflowContinuedAsNew,
                PrimitiveEvent {

    String runId();

    long seq();

    Instant at();

    /** The event's type name as stored: the record's simple name. */
    default String type() {
        return getClass().getSimpleName();
    }

    /** Whether this event ends the run. */
    default boolean isTerminal() {
        return this instanceof WorkflowCompleted || this instanceof WorkflowFailed || this instanceof WorkflowCanceled;
    }

    static void check(String runId, long seq, Instant at) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(at, "at");
        if (seq < 0) {
            throw new IllegalArgumentException("seq must not be negative, was " + seq);
        }
    }
}
