package io.worldflow.runtime.internal.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.NewRun;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The spans of runs. A run's trace crosses the durable gap in its log: the code that starts it makes a start span and
 * the run's first event keeps that span's W3C trace context, which every later turn, on any worker, continues. The
 * context is kept in the W3C form whatever propagators the application uses, so that any worker can read it.
 */
final class RunTracing {

    static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("worldflow.run.id");
    static final AttributeKey<String> WORKFLOW = AttributeKey.stringKey("worldflow.workflow");
    static final AttributeKey<String> QUEUE = AttributeKey.stringKey("worldflow.queue");
    static final AttributeKey<String> WORLD = AttributeKey.stringKey("worldflow.world");
    static final AttributeKey<String> STEP_ID = AttributeKey.stringKey("worldflow.step.id");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("worldflow.step.attempt");
    static final AttributeKey<String> TIMER_ID = AttributeKey.stringKey("worldflow.timer.id");
    static final AttributeKey<String> SIGNAL = AttributeKey.stringKey("worldflow.signal.name");
    static final AttributeKey<Boolean> TIMED_OUT = AttributeKey.booleanKey("worldflow.signal.timed_out");
    static final AttributeKey<String> CHILD_RUN_ID = AttributeKey.stringKey("worldflow.child.run.id");
    static final AttributeKey<String> CHILD_WORKFLOW = AttributeKey.stringKey("worldflow.child.workflow");
    static final AttributeKey<String> CHILD_STATUS = AttributeKey.stringKey("worldflow.child.status");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("worldflow.turn.outcome");
    static final AttributeKey<Boolean> CREATED = AttributeKey.booleanKey("worldflow.run.created");

    private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    private static final TextMapGetter<WorkflowStarted> FROM_LOG = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(WorkflowStarted carrier) {
            return List.of(TRACEPARENT, TRACESTATE);
        }

        @Override
        public String get(WorkflowStarted carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return switch (key) {
                case TRACEPARENT -> carrier.traceParent();
                case TRACESTATE -> carrier.traceState();
                default -> null;
            };
        }
    };

    private final Tracer tracer;
    private final String world;
    /**
     * Span names by what they name ({@code turn order.fulfil.v1}, {@code step charge}): made once, not at every span,
     * up to a bound (a step named from data would otherwise grow it without end).
     */
    private final Map<String, String> turnNames = new ConcurrentHashMap<>();

    private final Map<String, String> stepNames = new ConcurrentHashMap<>();
    private static final int MAX_NAMES = 10_000;

    RunTracing(OpenTelemetry openTelemetry, String world) {
        this.tracer = openTelemetry.getTracer("io.worldflow");
        this.world = world;
    }

    /** The start span of a run about to be created, open until {@link Telemetry.Start#created} says how it went. */
    Telemetry.Start started(NewRun run) {
        Span span = tracer.spanBuilder("start " + run.workflow())
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(RUN_ID, run.runId())
                .setAttribute(WORKFLOW, run.workflow())
                .setAttribute(QUEUE, run.queue())
                .setAttribute(WORLD, world)
                .startSpan();
        Map<String, String> carrier = new HashMap<>(4);
        W3C.inject(Context.current().with(span), carrier, Map::put);
        return new Telemetry.Start(run.withTrace(carrier.get(TRACEPARENT), carrier.get(TRACESTATE)), span);
    }

    static void created(Span span, boolean created) {
        span.setAttribute(CREATED, created);
        span.end();
    }

    /** The span of a turn: a child of the run's start span when its log keeps one, else the root of its own trace. */
    Span turn(String runId, String queue, WorkflowStarted started) {
        SpanBuilder b = tracer.spanBuilder(name(turnNames, "turn ", started.workflow()))
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(RUN_ID, runId)
                .setAttribute(WORKFLOW, started.workflow())
                .setAttribute(QUEUE, queue)
                .setAttribute(WORLD, world);
        if (started.traceParent() == null) {
            b.setNoParent();
        } else {
            b.setParent(W3C.extract(Context.root(), started, FROM_LOG));
        }
        return b.startSpan();
    }

    /** The name of the span of step {@code name}. */
    String stepName(String name) {
        return name(stepNames, "step ", name);
    }

    private static String name(Map<String, String> names, String kind, String what) {
        String known = names.get(what);
        if (known != null) {
            return known;
        }
        String made = kind + what;
        if (names.size() < MAX_NAMES) {
            names.putIfAbsent(what, made);
        }
        return made;
    }

    SpanBuilder child(String name, Context parent, String runId) {
        return tracer.spanBuilder(name)
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(RUN_ID, runId);
    }

    /** A span of a wait that began in an earlier turn or this one: it is made whole when the wait ends. */
    void waited(SpanBuilder b, Instant from, Instant to, boolean error) {
        Span span = b.setStartTimestamp(from).startSpan();
        if (error) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end(to);
    }
}
