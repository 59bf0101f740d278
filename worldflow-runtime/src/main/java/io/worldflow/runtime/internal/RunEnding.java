package io.worldflow.runtime.internal;

import io.worldflow.DeadlineExceededException;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SerializationException;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
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

    RunEnding(RunExecution exec) {
        this.exec = exec;
    }

    void returned(RunContext root, Object output) {
        if (!exec.claimEnd()) {
            return;
        }
        if (exec.canceling()) {
            endCanceled();
            return;
        }
        if (exec.deadlinePassed()) {
            endFailed(new DeadlineExceededException(exec.runId, exec.info.deadline()));
            return;
        }
        if (exec.nondeterminism() != null) {
            endHeld(exec.nondeterminism());
            return;
        }
        if (root.unvisitedRecorded() > 0) {
            endHeld(exec.nondeterministic("the workflow returned, but its history holds " + root.unvisitedRecorded()
                    + " more primitive(s) the code no longer reaches"));
            return;
        }
        Payload encoded;
        try {
            encoded = exec.engine.codec.encode(output, "result of run '" + exec.runId + "'");
        } catch (SerializationException e) {
            endFailed(e);
            return;
        }
        exec.record(seq -> new WorkflowCompleted(exec.runId, seq, exec.now(), encoded));
        finish(RunStatus.COMPLETED);
    }

    void failed(Throwable error) {
        if (!exec.claimEnd()) {
            return;
        }
        if (exec.nondeterminism() != null) {
            endHeld(exec.nondeterminism());
        } else if (error instanceof HeldException held) {
            endHeld(held);
        } else if (exec.canceling()) {
            endCanceled();
        } else if (exec.deadlinePassed()) {
            endFailed(new DeadlineExceededException(exec.runId, exec.info.deadline()));
        } else {
            endFailed(error);
        }
    }

    private void endFailed(Throwable error) {
        ErrorInfo err = ErrorInfo.of(error);
        log.info("run {} failed: {}", exec.runId, err.summary());
        exec.record(seq -> new WorkflowFailed(exec.runId, seq, exec.now(), err));
        finish(RunStatus.FAILED);
    }

    private void endCanceled() {
        Instant now = exec.now();
        RunInfo.CancelRequest request = exec.info.cancelRequest();
        if (request == null) {
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
        exec.record(seq -> new WorkflowCancelRequested(exec.runId, seq, now, reason, requestedAt));
        exec.record(seq -> new WorkflowCanceled(exec.runId, seq, now));
        finish(RunStatus.CANCELED);
    }

    private void finish(RunStatus status) {
        try {
            exec.endTurn(status, null);
            exec.setOutcome(RunExecution.Outcome.FINISHED);
            exec.engine.completions.finished(exec.runId);
        } catch (ExecutionStop stop) {
            exec.setOutcome(RunExecution.Outcome.ABORTED);
        } catch (RuntimeException e) {
            log.warn("run {}: could not record its end ({}); it will be resumed", exec.runId, e.toString());
            exec.setOutcome(RunExecution.Outcome.ABORTED);
        }
    }

    private void endHeld(RuntimeException why) {
        log.warn("run {} is held: {}", exec.runId, why.getMessage());
        try {
            exec.engine.world.eventLog().hold(exec.runId, ErrorInfo.of(why));
            exec.engine.world.taskQueue().complete(exec.lease(), exec.now().plus(exec.engine.holdRetry));
            exec.setOutcome(RunExecution.Outcome.HELD);
        } catch (RuntimeException e) {
            log.warn("run {}: could not record the hold ({})", exec.runId, e.toString());
            exec.setOutcome(RunExecution.Outcome.ABORTED);
        }
    }
}
