package io.worldflow.runtime.internal;

import io.worldflow.CanceledException;
import io.worldflow.ErrorInfo;
import io.worldflow.NonRetryableException;
import io.worldflow.Payload;
import io.worldflow.RetryPolicy;
import io.worldflow.SerializationException;
import io.worldflow.StepFailedException;
import io.worldflow.StepFunction;
import io.worldflow.StepInterruptedException;
import io.worldflow.StepOptions;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepStarted;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.StepInterceptor;
import org.slf4j.MDC;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A step of a scope of a run, once its id is taken: its recorded outcome on replay, else its attempts (each recorded
 * as it starts, on the thread of the code that runs it or, with a time limit, on one of its own), their retries and
 * its outcome.
 */
final class StepRun {

    private StepRun() {}

    /** Whether the history holds the step's outcome. */
    static boolean ended(History.Recorded recorded) {
        return recorded != null && (recorded.has(StepCompleted.class) || recorded.has(StepFailed.class));
    }

    /** The step's recorded outcome: its result, or its failure thrown. */
    static <T> T replay(RunContext ctx, String id, History.Recorded recorded) {
        StepCompleted completed = recorded.last(StepCompleted.class);
        if (completed != null) {
            return ctx.decodeRecorded(completed.result(), "result of step '" + id + "'");
        }
        StepFailed failed = recorded.last(StepFailed.class);
        throw new StepFailedException(id, failed.attempt(), failed.error(), null);
    }

    /** Runs a step that is scheduled and has no outcome yet: its attempts, their retries and its outcome recorded. */
    static <T> T run(RunContext ctx, String id, StepOptions options, StepFunction<T> fn, History.Recorded recorded) {
        RunExecution exec = ctx.exec;
        CancelScope cancel = ctx.cancel;
        RetryPolicy policy = options.retry() != null
                ? options.retry()
                : exec.workflow.options().stepRetry();
        int before = recorded == null ? 0 : recorded.attemptsBeforeRetry;
        int attempt = before + 1;
        if (recorded != null) {
            StepRetrying retrying = recorded.last(StepRetrying.class);
            StepStarted started = recorded.last(StepStarted.class);
            if (retrying != null && retrying.attempt() <= before) {
                retrying = null;
            }
            if (started != null && started.attempt() <= before) {
                started = null;
            }
            if (started != null && (retrying == null || started.attempt() > retrying.attempt())) {
                // an attempt began and never ended: its worker died during it
                if (options.atMostOnce()) {
                    ErrorInfo err = ErrorInfo.of(
                            StepInterruptedException.class.getName(),
                            "attempt " + started.attempt() + " of at-most-once step '" + id
                                    + "' was interrupted and is not run again");
                    int a = started.attempt();
                    ctx.record(seq -> new StepFailed(exec.runId, seq, exec.now(), id, a, err));
                    throw new StepFailedException(id, a, err, null);
                }
                attempt = started.attempt();
            } else if (retrying != null) {
                attempt = retrying.attempt() + 1;
                ctx.waitUntil(retrying.retryAt(), false);
            }
        }
        while (true) {
            ctx.live();
            int a = attempt;
            ctx.record(seq -> new StepStarted(exec.runId, seq, exec.now(), id, a));
            if (options.atMostOnce()) {
                exec.flush();
            } else {
                exec.flushOutcomes(ctx.seenSeq());
            }
            Throwable error;
            try {
                T value = invoke(ctx, id, a, options, fn);
                if (cancel.canceledAlone()) {
                    // it lost a race while it ran: nothing more is recorded of it, its result included
                    throw cancel.exception(exec.runId);
                }
                String what = "result of step '" + id + "' of run '" + exec.runId + "'";
                // the code continues with what replay would see: the value as decoded from the log
                JsonCodec.Recorded written = exec.engine.codec.encodeAndRead(value, what);
                Payload result = written.payload();
                @SuppressWarnings("unchecked")
                T recordedValue = (T) written.value();
                // durable with the next side effect or the turn's end, whichever comes first
                ctx.record(seq -> new StepCompleted(exec.runId, seq, exec.now(), id, a, result));
                return recordedValue;
            } catch (ExecutionStop | CanceledException stop) {
                throw stop;
            } catch (SerializationException e) {
                error = new NonRetryableException(e.getMessage(), e);
            } catch (Throwable e) {
                error = e;
            }
            // an attempt cut short by a cancel or the deadline is no failure of the step: the run is told of that
            ctx.live();
            ErrorInfo err = ErrorInfo.of(error);
            if (policy.shouldRetry(error, a - before)) {
                Instant retryAt = exec.now().plus(policy.delayAfter(a - before, ThreadLocalRandom.current()));
                ctx.record(seq -> new StepRetrying(exec.runId, seq, exec.now(), id, a, err, retryAt));
                ctx.waitUntil(retryAt, false);
                attempt++;
                continue;
            }
            ctx.record(seq -> new StepFailed(exec.runId, seq, exec.now(), id, a, err));
            throw new StepFailedException(id, a, err, error);
        }
    }

    private static <T> T invoke(RunContext ctx, String id, int attempt, StepOptions options, StepFunction<T> fn)
            throws Exception {
        RunExecution exec = ctx.exec;
        CancelScope cancel = ctx.cancel;
        StepFunction<T> code = intercepted(exec, id, attempt, fn);
        Instant started = exec.now();
        Instant limit = options.timeout() == null ? null : started.plus(options.timeout());
        Instant deadline = exec.info.deadline();
        boolean byDeadline = deadline != null && (limit == null || deadline.isBefore(limit));
        StepAttempt info = new StepAttempt(
                exec.runId + ":" + id + ":" + attempt, attempt, byDeadline ? deadline : limit, byDeadline, started);
        if (info.limit != null || options.heartbeatTimeout() != null) {
            return new TimedStep<T>(exec, cancel, id, info, options.timeout(), options.heartbeatTimeout()).run(code);
        }
        StepAttempt previous = StepAttempt.CURRENT.get();
        StepAttempt.CURRENT.set(info);
        MDC.put("stepId", id);
        exec.steps.enter(cancel);
        try {
            return code.call();
        } finally {
            exec.steps.leave();
            MDC.remove("stepId");
            if (previous == null) {
                StepAttempt.CURRENT.remove();
            } else {
                StepAttempt.CURRENT.set(previous);
            }
        }
    }

    /** The attempt's code as the engine's interceptor runs it. */
    @SuppressWarnings("unchecked")
    private static <T> StepFunction<T> intercepted(RunExecution exec, String id, int attempt, StepFunction<T> fn) {
        StepInterceptor.StepCall call =
                new StepInterceptor.StepCall(exec.runId, exec.workflow.name(), id, Ids.nameOf(id), attempt);
        return exec.telemetry.step(call, () -> (T) exec.engine.steps.intercept(call, fn));
    }
}
