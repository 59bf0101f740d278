package io.worldflow.runtime.internal.telemetry;

import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.worldflow.RunStatus;
import io.worldflow.StepFunction;
import io.worldflow.runtime.StepInterceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * What one turn of a run reports: its span, current on the workflow code's threads so that a child started there
 * joins the trace; a span per step attempt, current while the attempt's code runs, so that the calls it makes nest
 * under it; a span per timer, signal wait and child run when it ends; and the turn's meters. Only what runs live is
 * reported: a replayed primitive never reaches here.
 */
public final class TurnTelemetry {

    static final TurnTelemetry NONE = new TurnTelemetry(null, null, null);

    private final Span span;
    private final Context context;
    private final RunTracing tracing;
    private final RunMeters.PerWorkflow meters;
    private final long startNanos = System.nanoTime();

    TurnTelemetry(Span span, RunTracing tracing, RunMeters.PerWorkflow meters) {
        this.span = span;
        this.context = span == null ? null : Context.root().with(span);
        this.tracing = tracing;
        this.meters = meters;
    }

    /** Whether anything of the turn is reported. */
    public boolean on() {
        return this != NONE;
    }

    /** {@code body} with the turn's span current while it runs. */
    public Runnable current(Runnable body) {
        return context == null ? body : context.wrap(body);
    }

    /** A step attempt's code, traced and measured. */
    public <T> StepFunction<T> step(StepInterceptor.StepCall call, StepFunction<T> code) {
        if (this == NONE) {
            return code;
        }
        return () -> {
            Span attempt = context == null
                    ? null
                    : tracing.child(tracing.stepName(call.name()), context, call.runId())
                            .setAttribute(RunTracing.STEP_ID, call.stepId())
                            .setAttribute(RunTracing.ATTEMPT, (long) call.attempt())
                            .startSpan();
            long began = System.nanoTime();
            boolean failed = true;
            try (Scope ignored = attempt == null ? null : attempt.makeCurrent()) {
                T value = code.call();
                failed = false;
                return value;
            } catch (Throwable e) {
                if (attempt != null) {
                    attempt.recordException(e);
                    attempt.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
                }
                throw e;
            } finally {
                if (meters != null) {
                    (failed ? meters.stepFailure : meters.stepSuccess)
                            .record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
                }
                if (attempt != null) {
                    attempt.end();
                }
            }
        };
    }

    /** A durable timer scheduled at {@code scheduledAt} to fire at {@code fireAt} fired {@code now}. */
    public void timerFired(String runId, String id, Instant scheduledAt, Instant fireAt, Instant now) {
        if (meters != null && now.isAfter(fireAt)) {
            meters.lateness.record(Duration.between(fireAt, now));
        }
        if (context != null && scheduledAt != null) {
            tracing.waited(
                    tracing.child("timer", context, runId).setAttribute(RunTracing.TIMER_ID, id),
                    scheduledAt,
                    now,
                    false);
        }
    }

    /** A wait for signal {@code name}, requested at {@code requestedAt}, ended {@code now}: received or timed out. */
    public void signalWaited(String runId, String name, Instant requestedAt, Instant now, boolean timedOut) {
        if (context != null && requestedAt != null) {
            tracing.waited(
                    tracing.child("signal " + name, context, runId)
                            .setAttribute(RunTracing.SIGNAL, name)
                            .setAttribute(RunTracing.TIMED_OUT, timedOut),
                    requestedAt,
                    now,
                    false);
        }
    }

    /** A child run started at {@code startedAt} was heard to end {@code now}, as {@code status}. */
    public void childEnded(
            String runId, String workflow, String childRunId, Instant startedAt, Instant now, RunStatus status) {
        if (context != null && startedAt != null) {
            tracing.waited(
                    tracing.child("child " + workflow, context, runId)
                            .setAttribute(RunTracing.CHILD_WORKFLOW, workflow)
                            .setAttribute(RunTracing.CHILD_RUN_ID, childRunId)
                            .setAttribute(RunTracing.CHILD_STATUS, status.name()),
                    startedAt,
                    now,
                    status != RunStatus.COMPLETED);
        }
    }

    /** The run ended in this turn: {@code continued} when it continued as new. */
    public void runEnded(RunStatus status, boolean continued) {
        if (meters != null) {
            (continued
                            ? meters.continued
                            : switch (status) {
                                case COMPLETED -> meters.completed;
                                case CANCELED -> meters.canceled;
                                default -> meters.failed;
                            })
                    .increment();
        }
        if (span != null && status == RunStatus.FAILED) {
            span.setStatus(StatusCode.ERROR, "run failed");
        }
    }

    /** The run is held by this turn: {@code newly} when it was not held before. */
    public void held(String why, boolean newly) {
        if (meters != null && newly) {
            meters.held.increment();
        }
        if (span != null) {
            span.setStatus(StatusCode.ERROR, why == null ? "held" : why);
        }
    }

    /** The turn ended: {@code finished}, {@code suspended}, {@code held} or {@code aborted}. */
    public void ended(String outcome) {
        if (meters != null) {
            long nanos = System.nanoTime() - startNanos;
            Timer t = switch (outcome) {
                case "finished" -> meters.turnFinished;
                case "suspended" -> meters.turnSuspended;
                case "held" -> meters.turnHeld;
                default -> meters.turnAborted;
            };
            t.record(nanos, TimeUnit.NANOSECONDS);
        }
        if (span != null) {
            span.setAttribute(RunTracing.OUTCOME, outcome);
            span.end();
        }
    }
}
