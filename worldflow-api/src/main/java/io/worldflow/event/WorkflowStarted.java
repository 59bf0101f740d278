package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;
import java.util.List;

/**
 * The run was created: always the event at seq 0.
 *
 * @param deadline when it fails if it has not ended, or null
 * @param parent        the run that started it as a child, which hears of its end; null for a run started otherwise
 * @param continuedFrom the run it continues ({@code continueAsNew}), which ended as it began; null for a first run
 * @param schedule      the schedule that started it, or null
 * @param scheduledFor  the schedule's fire time that started it, or null
 * @param actor         who started it ({@link io.worldflow.Actors}), or null when not known (a child, a successor)
 * @param searchAttributes the run's search attributes as it starts, each {@code name=<stored value>}
 *                      ({@link io.worldflow.spi.SearchValues}); null or empty for none
 * @param traceParent   the W3C {@code traceparent} of the trace its spans belong to (the code that started it), or
 *                      null when it was started without tracing
 * @param traceState    the W3C {@code tracestate} that goes with {@code traceParent}, or null
 */
public record WorkflowStarted(
        String runId,
        long seq,
        Instant at,
        String workflow,
        Payload input,
        Instant deadline,
        String parent,
        String continuedFrom,
        String schedule,
        Instant scheduledFor,
        String actor,
        List<String> searchAttributes,
        String traceParent,
        String traceState)
        implements Event {

    public WorkflowStarted {
        Event.check(runId, seq, at);
        searchAttributes =
                searchAttributes == null || searchAttributes.isEmpty() ? null : List.copyOf(searchAttributes);
    }

    /** A run started without tracing. */
    public WorkflowStarted(
            String runId,
            long seq,
            Instant at,
            String workflow,
            Payload input,
            Instant deadline,
            String parent,
            String continuedFrom,
            String schedule,
            Instant scheduledFor,
            String actor,
            List<String> searchAttributes) {
        this(
                runId,
                seq,
                at,
                workflow,
                input,
                deadline,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                actor,
                searchAttributes,
                null,
                null);
    }

    /** A run started without search attributes. */
    public WorkflowStarted(
            String runId,
            long seq,
            Instant at,
            String workflow,
            Payload input,
            Instant deadline,
            String parent,
            String continuedFrom,
            String schedule,
            Instant scheduledFor,
            String actor) {
        this(runId, seq, at, workflow, input, deadline, parent, continuedFrom, schedule, scheduledFor, actor, null);
    }

    /** A run no schedule started. */
    public WorkflowStarted(
            String runId,
            long seq,
            Instant at,
            String workflow,
            Payload input,
            Instant deadline,
            String parent,
            String continuedFrom) {
        this(runId, seq, at, workflow, input, deadline, parent, continuedFrom, null, null, null);
    }

    /** A run that continues no other. */
    public WorkflowStarted(
            String runId, long seq, Instant at, String workflow, Payload input, Instant deadline, String parent) {
        this(runId, seq, at, workflow, input, deadline, parent, null, null, null, null);
    }

    /** A run of no parent. */
    public WorkflowStarted(String runId, long seq, Instant at, String workflow, Payload input, Instant deadline) {
        this(runId, seq, at, workflow, input, deadline, null, null, null, null, null);
    }
}
