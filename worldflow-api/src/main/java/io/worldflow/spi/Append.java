package io.worldflow.spi;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Events to add to one run's log, atomically, only if the log's length is {@code expectedSeq}.
 * Along with the events the world updates the run's projection in the same transaction: the status,
 * the output or error of a terminal event, and clears a hold.
 *
 * <p>An append may also carry effects on other runs: runs to start, signals to send, cancellations to request, and
 * (when it ends its run) the run's pending signals handed to a successor. They take effect only when the append itself
 * does: an append refused (a conflict, a fence, an unknown run) applies none of them. Where the store allows,
 * they commit in the append's own transaction; a world that cannot (the AWS world, past one transaction's size) says
 * which of them it writes before the append, where a refused append leaves them written: starts and keyed signals are
 * idempotent, but a signal without a key is then stored again when the append is retried. {@link #carrySignalsTo} is
 * atomic with the append on every world. The effects see the store as the append leaves it, and none of them may
 * name the append's own run.
 *
 * @param runId           the run
 * @param expectedSeq     the log's length the writer saw; the events carry seq expectedSeq, expectedSeq+1, …
 * @param events          events of this run with consecutive seq; empty for an update of the status alone
 *                        (still only if the log's length is {@code expectedSeq})
 * @param status          the run's status after these events
 * @param consumedSignals ids of pending signals these events consume (removed in the same transaction)
 * @param turnEnd         when non-null, ends the writer's turn in the same transaction (see {@link TurnEnd})
 * @param starts          runs to create as {@link EventLog#create} creates them ({@code WorkflowStarted} at seq 0,
 *                        {@code PENDING}, first turn due at {@code availableAt}, projection with its parent); an id that
 *                        exists is left untouched, silently, and the append still applies; ids unique
 * @param signals         signals to other runs, each stored as {@link Signals#send(String, String, io.worldflow.Payload,
 *                        String)} stores it (dedupe by key, the target due for a turn), in this order; a target that
 *                        does not exist or has finished is skipped silently
 * @param cancels         cancellations to request of other runs, as {@link EventLog#requestCancel} requests them; a
 *                        run that does not exist or has finished is skipped silently
 * @param carrySignalsTo  null, or the id of one of {@code starts} when {@code status} is terminal (continue-as-new):
 *                        every signal still pending for this run when the append commits moves to that run, as if
 *                        sent to it then (names, payloads, keys and sent-at kept, in arrival order, the run due for a
 *                        turn), atomically with the append. A signal sent to this run is therefore either carried
 *                        (its send committed first) or refused with {@link io.worldflow.RunFinishedException} (it came
 *                        after): none is lost. When that id names a run that existed and has finished, the signals stay
 *                        with this run, as a send to a finished run would be refused
 */
public record Append(
        String runId,
        long expectedSeq,
        List<Event> events,
        RunStatus status,
        List<Long> consumedSignals,
        TurnEnd turnEnd,
        List<NewRun> starts,
        List<OutgoingSignal> signals,
        List<OutgoingCancel> cancels,
        String carrySignalsTo) {

    public Append {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        events = List.copyOf(events);
        consumedSignals = consumedSignals == null ? List.of() : List.copyOf(consumedSignals);
        starts = starts == null ? List.of() : List.copyOf(starts);
        signals = signals == null ? List.of() : List.copyOf(signals);
        cancels = cancels == null ? List.of() : List.copyOf(cancels);
        long seq = expectedSeq;
        for (Event e : events) {
            if (!e.runId().equals(runId)) {
                throw new IllegalArgumentException("event of run " + e.runId() + " in an append to " + runId);
            }
            if (e.seq() != seq++) {
                throw new IllegalArgumentException("event seq " + e.seq() + " where " + (seq - 1) + " was expected");
            }
        }
        checkEffects(runId, status, starts, signals, cancels, carrySignalsTo);
    }

    /** An append without effects on other runs. */
    public Append(
            String runId,
            long expectedSeq,
            List<Event> events,
            RunStatus status,
            List<Long> consumedSignals,
            TurnEnd turnEnd) {
        this(runId, expectedSeq, events, status, consumedSignals, turnEnd, List.of(), List.of(), List.of(), null);
    }

    public Append(String runId, long expectedSeq, List<Event> events, RunStatus status) {
        this(runId, expectedSeq, events, status, List.of(), null);
    }

    /** This append with these effects on other runs in place of its own (see the record's description). */
    public Append withEffects(
            List<NewRun> starts, List<OutgoingSignal> signals, List<OutgoingCancel> cancels, String carrySignalsTo) {
        return new Append(
                runId, expectedSeq, events, status, consumedSignals, turnEnd, starts, signals, cancels, carrySignalsTo);
    }

    /** Whether it has effects on other runs. */
    public boolean hasEffects() {
        return !starts.isEmpty() || !signals.isEmpty() || !cancels.isEmpty() || carrySignalsTo != null;
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

    private static void checkEffects(
            String runId,
            RunStatus status,
            List<NewRun> starts,
            List<OutgoingSignal> signals,
            List<OutgoingCancel> cancels,
            String carrySignalsTo) {
        Set<String> started = new LinkedHashSet<>();
        for (NewRun run : starts) {
            if (!started.add(run.runId())) {
                throw new IllegalArgumentException("run " + run.runId() + " is started twice by an append to " + runId);
            }
        }
        // a run's own row is the append's: an effect on it would be a second write of one row in one transaction
        boolean self = started.contains(runId)
                || signals.stream().anyMatch(s -> s.runId().equals(runId))
                || cancels.stream().anyMatch(c -> c.runId().equals(runId));
        if (self) {
            throw new IllegalArgumentException("an append to " + runId + " starts, signals or cancels that same run");
        }
        if (carrySignalsTo != null) {
            if (!started.contains(carrySignalsTo)) {
                throw new IllegalArgumentException("an append to " + runId + " carries its signals to " + carrySignalsTo
                        + ", which is not among the runs it starts " + started);
            }
            if (!status.isTerminal()) {
                throw new IllegalArgumentException("an append to " + runId + " carries its signals to " + carrySignalsTo
                        + " but leaves the run " + status + ": only a run that ends hands them on");
            }
        }
    }

    /** The instant of the last event, which becomes the projection's {@code updatedAt}; null when there are no events. */
    public Instant lastAt() {
        return events.isEmpty() ? null : events.getLast().at();
    }
}
