package io.worldflow.runtime.internal.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.NewRun;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * What one Worldflow instance reports of its runs: spans to OpenTelemetry and meters to Micrometer, each off unless the
 * application gives a tracer provider or a registry. Off, every call is a null check and nothing is allocated.
 */
public final class Telemetry {

    public static final Telemetry OFF = new Telemetry(null, null);

    private final RunTracing tracing;
    private final RunMeters meters;

    private Telemetry(RunTracing tracing, RunMeters meters) {
        this.tracing = tracing;
        this.meters = meters;
    }

    /**
     * @param openTelemetry where spans go, or null for none
     * @param registry      where meters go, or null for none
     * @param world         the world's name, a tag and attribute of everything reported
     */
    public static Telemetry of(OpenTelemetry openTelemetry, MeterRegistry registry, String world) {
        if (openTelemetry == null && registry == null) {
            return OFF;
        }
        return new Telemetry(
                openTelemetry == null ? null : new RunTracing(openTelemetry, world),
                registry == null ? null : new RunMeters(registry, world));
    }

    /** The registry meters go to, or null. */
    public MeterRegistry registry() {
        return meters == null ? null : meters.registry();
    }

    /**
     * The run about to be created by the code running now, carrying the trace it belongs to: a start span, a child of
     * the current span (or the root of a new trace), whose context the run's log keeps for its turns. The span lasts
     * until {@link Start#created} says whether a run was created (not when its id was already taken).
     */
    public Start traced(NewRun run) {
        return tracing == null || run.traceParent() != null ? new Start(run, null) : tracing.started(run);
    }

    /** A run about to be created, with its start span (null when there is none). */
    public record Start(NewRun run, io.opentelemetry.api.trace.Span span) {

        /** Ends the start span, saying whether the run was created or its id already taken. */
        public void created(boolean created) {
            if (span != null) {
                RunTracing.created(span, created);
            }
        }
    }

    /** A run was created. */
    public void created(NewRun run) {
        if (meters != null) {
            meters.of(run.workflow(), run.queue()).started.increment();
        }
    }

    /**
     * A turn of a run begins on this worker.
     *
     * @param due when the turn was due, for its lag: a run's first turn's, when it was to start (null: not known)
     */
    public TurnTelemetry turn(String runId, String queue, WorkflowStarted started, Instant due, Instant now) {
        if (this == OFF) {
            return TurnTelemetry.NONE;
        }
        RunMeters.PerWorkflow m = meters == null ? null : meters.of(started.workflow(), queue);
        if (m != null && due != null && !due.isAfter(now)) {
            m.lag.record(Duration.between(due, now));
        }
        return new TurnTelemetry(tracing == null ? null : tracing.turn(runId, queue, started), tracing, m);
    }

    /** One batch of appends committed together, {@code nanos} long. */
    public void committed(int appends, long nanos) {
        if (meters != null) {
            meters.committed(appends, nanos);
        }
    }

    /** A turn's lease was extended ({@code kept}) or found taken by another. */
    public void leaseRenewal(String queue, boolean kept) {
        if (meters != null) {
            meters.lease(queue, kept);
        }
    }

    /**
     * A worker of this process serves {@code workflows} on {@code queues}: their meters are registered now, so that they
     * read zero from the start instead of appearing with their first count (a rate over a counter that appears at its
     * first increment misses that increment), and the first runs do not pay for registering them.
     */
    public void serving(Collection<String> workflows, Collection<String> queues) {
        if (meters != null) {
            meters.serving(workflows, queues);
        }
    }

    /** Reports how many turns run in this process's worker. */
    public void activeTurns(Supplier<Number> count) {
        if (meters != null) {
            meters.activeTurns(count);
        }
    }
}
