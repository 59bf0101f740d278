package io.worldflow.spi;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Events to add to one run's log, atomically, only if the log's length is {@code expectedSeq}.
 * Along with the events the world updates the run's projection in the same transaction: the status,
 * the output or error of a terminal event, and clears a hold.
 *
 * @param runId           the run
 * @param expectedSeq     the log's length the writer saw; the events carry seq expectedSeq, expectedSeq+1, …
 * @param events          events of this run with consecutive seq; empty for an update of the status alone
 *                        (still only if the log's length is {@code expectedSeq})
 * @param status          the run's status after these events
 * @param consumedSignals ids of pending signals these events consume (removed in the same transaction)
 * @param turnEnd         when non-null, ends the writer's turn in the same transaction (see {@link TurnEnd})
 */
public record Append(
        String runId,
        long expectedSeq,
        List<Event> events,
        RunStatus status,
        List<Long> consumedSignals,
        TurnEnd turnEnd) {

    public Append {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        events = List.copyOf(events);
        consumedSignals = consumedSignals == null ? List.of() : List.copyOf(consumedSignals);
        long seq = expectedSeq;
        for (Event e : events) {
            if (!e.runId().equals(runId)) {
                throw new IllegalArgumentException("event of run " + e.runId() + " in an append to " + runId);
            }
            if (e.seq() != seq++) {
                throw new IllegalArgumentException("event seq " + e.seq() + " where " + (seq - 1) + " was expected");
            }
        }
    }

    public Append(String runId, long expectedSeq, List<Event> events, RunStatus status) {
        this(runId, expectedSeq, events, status, List.of(), null);
    }

    /** The log's length after this append. */
    public long nextSeq() {
        return expectedSeq + events.size();
    }

    /** The output of a {@link WorkflowCompleted} among the events, else null. */
    public Payload output() {
        for (Event e : events) {
            if (e instanceof WorkflowCompleted c) {
                return c.output();
            }
        }
        return null;
    }

    /** The error of a {@link WorkflowFailed} among the events, else null. */
    public ErrorInfo error() {
        for (Event e : events) {
            if (e instanceof WorkflowFailed f) {
                return f.error();
            }
        }
        return null;
    }

    /** The instant of the last event, which becomes the projection's {@code updatedAt}; null when there are no events. */
    public Instant lastAt() {
        return events.isEmpty() ? null : events.getLast().at();
    }
}
