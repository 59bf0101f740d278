package io.worldflow.runtime.internal;

import io.worldflow.StepFunction;
import io.worldflow.StepTimeoutException;
import io.worldflow.WorkflowContext;
import io.worldflow.internal.CurrentContext;
import org.slf4j.MDC;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An attempt of a step with a time limit (its timeout, its heartbeat timeout or the run's deadline): its code runs on
 * a thread of its own while the workflow's thread watches the limits by the run's clock. Past a limit the attempt's
 * thread is interrupted and the attempt fails at once, whether or not its code notices: the run goes on, and what
 * that code returns later is dropped, never recorded.
 */
final class TimedStep<T> {

    /** How often the watching thread looks at the limits; a result is taken as soon as it comes. */
    private static final long LOOK_MILLIS = 20;

    private final RunExecution exec;
    private final CancelScope scope;
    private final String id;
    private final StepAttempt attempt;
    private final Duration timeout;
    private final Duration heartbeatTimeout;

    TimedStep(
            RunExecution exec,
            CancelScope scope,
            String id,
            StepAttempt attempt,
            Duration timeout,
            Duration heartbeatTimeout) {
        this.exec = exec;
        this.scope = scope;
        this.id = id;
        this.attempt = attempt;
        this.timeout = timeout;
        this.heartbeatTimeout = heartbeatTimeout;
    }

    T run(StepFunction<T> fn) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        String runId = exec.runId;
        String workflow = exec.workflow.name();
        // the step's code runs on a thread of its own, so that it can be left behind; Workflow.context() in it must
        // still reach the run, as it does in a step without a limit
        WorkflowContext caller = CurrentContext.peek();
        Thread thread = Thread.ofVirtual().name("wf-" + runId + "-" + id).start(() -> {
            CurrentContext.swap(caller);
            StepAttempt.CURRENT.set(attempt);
            MDC.put("runId", runId);
            MDC.put("workflow", workflow);
            MDC.put("stepId", id);
            exec.steps.enter(scope);
            try {
                result.complete(fn.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            } finally {
                exec.steps.leave();
                StepAttempt.CURRENT.remove();
                CurrentContext.swap(null);
                MDC.clear();
            }
        });
        while (true) {
            try {
                return result.get(LOOK_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException notYet) {
                // look at the limits below
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception ex) {
                    throw ex;
                }
                throw (Error) e.getCause();
            }
            RuntimeException limit;
            try {
                limit = passedLimit();
            } catch (ExecutionStop stop) {
                thread.interrupt(); // the turn is over: its step is of no use to anyone now
                throw stop;
            }
            if (limit != null) {
                thread.interrupt(); // the step's code may notice; the run does not wait for it either way
                throw limit;
            }
        }
    }

    /** What ends the attempt now, or null: a cancel, the end of the turn, its timeout, its heartbeat's, the deadline. */
    private RuntimeException passedLimit() {
        if (scope.isCanceled()) {
            return scope.exception(exec.runId);
        }
        exec.threads.checkActive();
        Instant now = exec.now();
        String what = "attempt " + attempt.attempt + " of step '" + id + "' of run '" + exec.runId + "'";
        if (attempt.limit != null && !now.isBefore(attempt.limit)) {
            return new StepTimeoutException(what
                    + (attempt.limitIsDeadline
                            ? " was still running when the run's deadline passed"
                            : " ran past its timeout of " + timeout)
                    + attempt.lastDetails());
        }
        if (heartbeatTimeout != null && !now.isBefore(attempt.lastBeat().plus(heartbeatTimeout))) {
            return new StepTimeoutException(
                    what + " sent no heartbeat for " + heartbeatTimeout + attempt.lastDetails());
        }
        return null;
    }
}
