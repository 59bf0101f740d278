package io.worldflow.event;

import io.worldflow.Payload;

import java.time.Instant;

/**
 * The run ended by handing over to its successor, a new run of the same workflow that was started with {@code input}
 * in the same write: no moment passed with neither, and the signals the run had not taken went to the successor. The
 * run's status is {@code COMPLETED}, with no output of its own; its result is its last successor's.
 */
public record WorkflowContinuedAsNew(String runId, long seq, Instant at, String successorRunId, Payload input)
        implements Event {

    public WorkflowContinuedAsNew {
        Event.check(runId, seq, at);
    }
}
