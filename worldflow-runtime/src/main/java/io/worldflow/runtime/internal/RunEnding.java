package io.worldflow.runtime.internal;

import io.worldflow.DeadlineExceededException;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.PayloadKeyException;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SerializationException;
import io.worldflow.WorldflowException;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.OutgoingSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;

/**
 * Decides how a run ends once its main thread leaves the workflow code, and records it: completed,
 * failed (an error, a passed deadline), canceled, or held (the code no longer matches the history).
 */
final class RunEnding {

    private static final Logger log = LoggerFactory.getLogger(RunEnding.class);

    private final RunExecution exec;
    /** The parent told of this run's end by its last append, to wake once that is written; null for none. */
    private String parentToPoke;

    RunEnding(RunExecution exec) {
        this.exec = exec;
    }

    void returned(RunContext root, Object output) {
        if (!exec.threads.claimEnd() || endedOtherwise(root, "returned")) {
            return;
        }
        Payload encoded;
        try {
            encoded = exec.engine.codec.encode(output, "result of run '" + exec.runId + "'");
        } catch (SerializationException e) {
            endFailed(e);
            return;
        }
        if (tellParent(RunStatus.COMPLETED, encoded, null)) {
            exec.record(seq -> new WorkflowCompleted(exec.runId, seq, exec.now(), encoded));
            finish(RunStatus.COMPLETED, false);
        }
    }

    /** The code continued as new with {@code input}: the run ends and its successor starts, in one write. */
    void continued(RunContext root, Object input) {
        if (!exec.threads.claimEnd() || endedOtherwise(root, "continued as new")) {
            return;
        }
        NewRun next;
        try {
            WorkflowStarted started = exec.history.started();
            String successor = Successors.next(exec.runId, started.continuedFrom());
            Payload encoded = exec.engine.codec.encode(input, "input of the successor of run '" + exec.runId + "'");
            Instant now = exec.now();
            next = new NewRun(
                            successor,
                            exec.workflow.name(),
                            encoded,
                            now,
                            now,
                            exec.info.deadline(),
                            exec.info.queue(),
                            exec.info.priority(),
                            started.parent(),
                            exec.runId)
                    .withSearchAttributes(exec.search.current())
                    // the successor's turns join the trace this run's belong to
                    .withTrace(started.traceParent(), started.traceState());
            if (exec.engine.replay == null) {
                checkUnused(successor);
            }
        } catch (WorldflowException e) {
            endFailed(e);
            return;
        }
        exec.record(seq -> new WorkflowContinuedAsNew(exec.runId, seq, exec.now(), next.runId(), next.input()));
        exec.runLog.handOver(next);
        if (finish(RunStatus.COMPLETED, true)) {
            exec.engine.telemetry.created(next);
        }
    }

    /** A run of the successor's id that exists already is no successor of this run: a clear error, not a merge. */
    private void checkUnused(String successor) {
        exec.engine.world.runQueries().get(successor).ifPresent(other -> {
            throw new WorldflowException("run '" + exec.runId + "' cannot continue as new: its successor's id, '"
                    + successor + "', belongs to a run of workflow '" + other.workflow() + "' started otherwise");
        });
    }

    /**
     * When the code has {@code how} (returned, continued as new), what ends the run instead, if anything: its
     * cancellation, its deadline, or a mismatch with its history (a hold). True when it ended so.
     */
    private boolean endedOtherwise(RunContext root, String how) {
        if (exec.canceling()) {
            endCanceled();
        } else if (exec.threads.deadlinePassed()) {
            endFailed(new DeadlineExceededException(exec.runId, exec.info.deadline()));
        } else if (exec.nondeterminism() != null) {
            endHeld(exec.nondeterminism());
        } else if (root.unvisitedRecorded() > 0) {
            endHeld(exec.nondeterministic("the workflow " + how + ", but its history holds " + root.unvisitedRecorded()
                    + " more primitive(s) the code no longer reaches"));
        } else {
            return false;
        }
        return true;
    }

    /**
     * The run was terminated: it ends canceled at the start of a turn, without any of its code running (no replay,
     * no cleanup), its children closed as their policies say and its parent told.
     */
    void terminated() {
        if (exec.threads.claimEnd()) {
            endCanceled();
        }
    }

    void failed(Throwable error) {
        if (!exec.threads.claimEnd()) {
            return;
        }
        if (exec.nondeterminism() != null) {
            endHeld(exec.nondeterminism());
        } else if (error instanceof HeldException held) {
            endHeld(held);
        } else if (error instanceof PayloadKeyException keyMissing) {
            endHeld(keyMissing); // a worker with the key can go on with it
        } else if (exec.canceling()) {
            endCanceled();
        } else if (exec.threads.deadlinePassed()) {
            endFailed(new DeadlineExceededException(exec.runId, exec.info.deadline()));
        } else {
            endFailed(error);
        }
    }

    private void endFailed(Throwable error) {
        ErrorInfo err = ErrorInfo.of(error);
        log.info("run {} failed: {}", exec.runId, err.summary());
        if (tellParent(RunStatus.FAILED, null, err)) {
            exec.record(seq -> new WorkflowFailed(exec.runId, seq, exec.now(), err));
            finish(RunStatus.FAILED, false);
        }
    }

    private void endCanceled() {
        Instant now = exec.now();
        RunInfo.CancelRequest request = exec.info.cancelRequest();
        if (request == null && exec.engine.replay == null) {
            try {
                request = exec.engine
                        .world
                        .runQueries()
                        .get(exec.runId)
                        .map(RunInfo::cancelRequest)
                        .orElse(null);
            } catch (RuntimeException e) {
                log.debug("run {}: could not read the cancellation request ({})", exec.runId, e.toString());
            }
        }
        String reason = request == null ? null : request.reason();
        Instant requestedAt = request == null || request.requestedAt() == null ? now : request.requestedAt();
        boolean terminate = request != null && request.terminate();
        String actor = request == null ? null : request.actor();
        if (tellParent(RunStatus.CANCELED, null, null)) {
            exec.record(
                    seq -> new WorkflowCancelRequested(exec.runId, seq, now, reason, requestedAt, terminate, actor));
            exec.record(seq -> new WorkflowCanceled(exec.runId, seq, now));
            finish(RunStatus.CANCELED, false);
        }
    }

    /** @return whether the end is recorded */
    private boolean finish(RunStatus status, boolean continued) {
        try {
            closeChildren();
            exec.endTurn(status, null);
            exec.telemetry.runEnded(status, continued);
            exec.threads.setOutcome(RunExecution.Outcome.FINISHED);
            exec.engine.completions.finished(exec.runId);
            exec.engine.queues.ended(exec.runId, exec.info.queue());
            WorkerLoop worker = exec.engine.worker;
            if (worker != null && parentToPoke != null) {
                worker.poke(parentToPoke); // in memory here, it hears of it now rather than when its turn ends
            }
            return true;
        } catch (ExecutionStop stop) {
            exec.threads.setOutcome(RunExecution.Outcome.ABORTED);
        } catch (RuntimeException e) {
            log.warn("run {}: could not record its end ({}); it will be resumed", exec.runId, e.toString());
            exec.threads.setOutcome(RunExecution.Outcome.ABORTED);
        }
        return false;
    }

    /**
     * Tells the parent, if the run has one, how it ends, before the end is recorded: what led to the end is made
     * durable first, so that a replay of this turn ends the same way, and the signal, keyed by this run's id, is
     * stored once however often the turn runs. False when the parent could not be told: the turn is given up and a
     * later one ends the run.
     */
    private boolean tellParent(RunStatus status, Payload output, ErrorInfo error) {
        WorkflowStarted started = exec.history.started();
        String parent = started.parent();
        if (parent == null) {
            return true;
        }
        // the parent waits for the chain's first run, which this run continues when it has continued as new
        String child = Successors.first(exec.runId, started.continuedFrom());
        try {
            String what = "end of run '" + exec.runId + "'";
            Payload outcome = exec.engine.codec.encode(new ChildRuns.Outcome(status.name(), output, error), what);
            // stored by the append that records the end, in its transaction (skipped if the parent is gone or has
            // ended: nobody waits for this run any more), keyed by the child's id: once however often it is tried
            exec.runLog.send(new OutgoingSignal(parent, ChildRuns.signalName(child), outcome, child));
            parentToPoke = parent;
            return true;
        } catch (ExecutionStop stop) {
            exec.threads.setOutcome(RunExecution.Outcome.ABORTED);
            return false;
        } catch (RuntimeException e) {
            log.warn(
                    "run {}: could not tell its parent {} how it ends ({}); it will be resumed",
                    exec.runId,
                    parent,
                    e.toString());
            exec.threads.abort("parent not told");
            exec.threads.setOutcome(RunExecution.Outcome.ABORTED);
            return false;
        }
    }

    /**
     * Asks the children still running to cancel, as their policy says, in the append that records this run's end
     * (one that has ended meanwhile is left alone).
     */
    private void closeChildren() {
        exec.children
                .open()
                .forEach((child, policy) -> ChildRuns.closing(child, policy, "parent run '" + exec.runId + "' ended")
                        .ifPresent(exec.runLog::cancel));
    }

    private void endHeld(RuntimeException why) {
        if (exec.engine.replay != null) {
            exec.engine.replay.held(exec, why);
            exec.threads.setOutcome(RunExecution.Outcome.HELD);
            return;
        }
        log.warn("run {} is held: {}", exec.runId, why.getMessage());
        try {
            exec.engine.world.eventLog().hold(exec.runId, ErrorInfo.of(why));
            exec.engine.world.taskQueue().complete(exec.lease(), exec.now().plus(exec.engine.holdRetry));
            // a held run is tried again now and then: counted once, when it is first held
            exec.telemetry.held(why.getMessage(), !exec.info.isHeld());
            exec.threads.setOutcome(RunExecution.Outcome.HELD);
        } catch (RuntimeException e) {
            log.warn("run {}: could not record the hold ({})", exec.runId, e.toString());
            exec.threads.setOutcome(RunExecution.Outcome.ABORTED);
        }
    }
}
