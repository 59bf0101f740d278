package io.worldflow.examples;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.examples.OrderFulfilment.Approval;
import io.worldflow.examples.OrderFulfilment.Charge;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Label;
import io.worldflow.examples.OrderFulfilment.Order;
import io.worldflow.examples.OrderFulfilment.Receipt;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo order traced: one trace from the request that started it, through two workers (the first stops while the
 * order cools off), with the payment provider's own span nested in the step that called it.
 */
@Timeout(60)
class TracingTest {

    @TempDir
    Path tmp;

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans))
            .build();
    private final OpenTelemetry openTelemetry =
            OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
    private final Tracer app = openTelemetry.getTracer("shop");
    private final ManualClock clock = ManualClock.start();

    /** A payment provider whose client makes its own span, as an instrumented HTTP client would. */
    private final class TracedServices implements OrderFulfilment.Payments, OrderFulfilment.Shipping {
        private final DemoServices services = new DemoServices(null, 0, false);

        @Override
        public Charge charge(Order order, String idempotencyKey) {
            Span call = app.spanBuilder("POST /payments").startSpan();
            try (Scope ignored = call.makeCurrent()) {
                return services.charge(order, idempotencyKey);
            } finally {
                call.end();
            }
        }

        @Override
        public void refund(Charge charge, String idempotencyKey) {
            services.refund(charge, idempotencyKey);
        }

        @Override
        public Label label(Item item, String idempotencyKey) {
            return services.label(item, idempotencyKey);
        }
    }

    private final TracedServices services = new TracedServices();
    private final Workflow<Order, Receipt> fulfil =
            OrderFulfilment.workflow(services, services, Duration.ofMinutes(10));
    private final Order order = new Order("o-1", "ada", List.of(new Item("mug", 1), new Item("tea", 2)), 1_200);

    @AfterEach
    void close() {
        tracerProvider.close();
    }

    private Worldflow worldflow(MeterRegistry meters) {
        // tag::observability[]
        Worldflow.Builder builder = Worldflow.builder()
                .openTelemetry(openTelemetry) // spans, to the application's SDK and its exporter
                .meterRegistry(meters); // meters, into the application's registry
        // end::observability[]
        return builder.register(fulfil)
                .clock(clock)
                .property("worldflow.local.path", tmp + "/orders.db")
                .build();
    }

    @Test
    void theOrderIsOneTraceFromTheRequestThroughBothWorkers() {
        String runId;
        Span request = app.spanBuilder("POST /orders").startSpan();
        try (Worldflow wf = worldflow(new SimpleMeterRegistry())) {
            wf.startWorker();
            try (Scope ignored = request.makeCurrent()) {
                runId = wf.start(fulfil, order).id();
            } finally {
                request.end();
            }
            awaitStatus(wf, runId, RunStatus.SLEEPING); // charged, cooling off: this worker stops
            WorkflowStarted started = (WorkflowStarted) wf.events(runId).getFirst();
            assertThat(started.traceParent()).contains(request.getSpanContext().getTraceId());
        }
        spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().startsWith("turn "))
                .forEach(s -> assertThat(s.getAttributes().asMap().toString()).contains(runId));
        int firstWorkerSpans = spans.getFinishedSpanItems().size();

        try (Worldflow wf = worldflow(new SimpleMeterRegistry())) {
            wf.startWorker();
            clock.advance(Duration.ofMinutes(10));
            awaitStatus(wf, runId, RunStatus.WAITING);
            wf.signal(runId, "approval", new Approval(true, "me"));
            assertThat(wf.handle(runId, Receipt.class)
                            .result(Duration.ofSeconds(20))
                            .status())
                    .isEqualTo("shipped");
        }

        List<SpanData> all = spans.getFinishedSpanItems();
        assertThat(all.size()).isGreaterThan(firstWorkerSpans);
        String traceId = request.getSpanContext().getTraceId();
        assertThat(all)
                .allSatisfy(s -> assertThat(s.getTraceId()).as(s.getName()).isEqualTo(traceId));
        Map<String, SpanData> byId = all.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));

        SpanData start = only(all, "start order.fulfil.v1");
        assertThat(start.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
        List<SpanData> turns = named(all, "turn order.fulfil.v1");
        assertThat(turns).hasSizeGreaterThanOrEqualTo(2);
        assertThat(turns).allSatisfy(t -> assertThat(t.getParentSpanId()).isEqualTo(start.getSpanId()));

        // each step attempt once, though the second worker replayed the charge: replayed primitives make no spans
        SpanData charge = only(all, "step charge");
        SpanData chargeTurn = byId.get(charge.getParentSpanId());
        assertThat(chargeTurn.getName()).isEqualTo("turn order.fulfil.v1");
        assertThat(only(all, "POST /payments").getParentSpanId()).isEqualTo(charge.getSpanId());
        List<SpanData> labels = named(all, "step label");
        assertThat(labels).hasSize(2);
        // the labels ran on the second worker, in a later turn than the charge
        assertThat(labels).allSatisfy(l -> assertThat(l.getParentSpanId()).isNotEqualTo(chargeTurn.getSpanId()));
        assertThat(labels)
                .allSatisfy(
                        l -> assertThat(byId.get(l.getParentSpanId()).getName()).isEqualTo("turn order.fulfil.v1"));

        // the waits: the cool-off timer and the approval, each from when it began to when it ended
        SpanData coolOff = only(all, "timer");
        assertThat(Duration.ofNanos(coolOff.getEndEpochNanos() - coolOff.getStartEpochNanos()))
                .isGreaterThanOrEqualTo(Duration.ofMinutes(10));
        SpanData approval = only(all, "signal approval");
        assertThat(approval.getAttributes().asMap().toString()).contains("worldflow.signal.timed_out=false");
        assertThat(byId.get(approval.getParentSpanId()).getName()).isEqualTo("turn order.fulfil.v1");
    }

    @Test
    void aChildRunJoinsItsParentsTraceAndItsWaitIsASpanOfTheParent() {
        Workflow<String, String> pack =
                Workflow.define("pack", String.class, (ctx, sku) -> ctx.step("box", () -> "boxed " + sku));
        Workflow<String, String> ship =
                Workflow.define("ship", String.class, (ctx, sku) -> ctx.child("pack", pack, sku));
        try (Worldflow wf = Worldflow.builder()
                .openTelemetry(openTelemetry)
                .register(pack)
                .register(ship)
                .property("worldflow.local.path", tmp + "/ship.db")
                .build()) {
            wf.startWorker();
            assertThat(wf.start(ship, "mug").result(Duration.ofSeconds(20))).isEqualTo("boxed mug");
        }
        List<SpanData> all = spans.getFinishedSpanItems();
        Map<String, SpanData> byId = all.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        SpanData shipStart = only(all, "start ship");
        assertThat(shipStart.getParentSpanId())
                .as("no span was current: a trace of its own")
                .isEqualTo("0000000000000000");
        assertThat(all)
                .allSatisfy(s -> assertThat(s.getTraceId()).as(s.getName()).isEqualTo(shipStart.getTraceId()));
        SpanData packStart = only(all, "start pack");
        assertThat(byId.get(packStart.getParentSpanId()).getName()).isEqualTo("turn ship");
        SpanData box = only(all, "step box");
        assertThat(byId.get(box.getParentSpanId()).getName()).isEqualTo("turn pack");
        assertThat(byId.get(byId.get(box.getParentSpanId()).getParentSpanId())).isEqualTo(packStart);
        SpanData waited = only(all, "child pack");
        assertThat(byId.get(waited.getParentSpanId()).getName()).isEqualTo("turn ship");
        assertThat(waited.getAttributes().asMap().toString()).contains("worldflow.child.status=COMPLETED");
    }

    @Test
    void startingARunWhoseIdIsTakenSaysSoOnItsStartSpanWhichLastsUntilTheCreateIsDone() {
        Workflow<String, String> pack =
                Workflow.define("pack", String.class, (ctx, sku) -> ctx.step("box", () -> "boxed " + sku));
        try (Worldflow wf = Worldflow.builder()
                .openTelemetry(openTelemetry)
                .register(pack)
                .property("worldflow.local.path", tmp + "/twice.db")
                .build()) {
            wf.start(pack, "mug", StartOptions.id("pack-1"));
            wf.start(pack, "mug", StartOptions.id("pack-1"));
        }
        List<SpanData> starts = named(spans.getFinishedSpanItems(), "start pack");
        assertThat(starts).hasSize(2);
        assertThat(starts)
                .extracting(s -> s.getAttributes().get(AttributeKey.booleanKey("worldflow.run.created")))
                .containsExactly(true, false);
        assertThat(starts).allSatisfy(s -> assertThat(s.getEndEpochNanos()).isGreaterThan(s.getStartEpochNanos()));
    }

    private static SpanData only(List<SpanData> all, String name) {
        List<SpanData> found = named(all, name);
        assertThat(found).as("spans named '%s' in %s", name, names(all)).hasSize(1);
        return found.getFirst();
    }

    private static List<SpanData> named(List<SpanData> all, String name) {
        return all.stream().filter(s -> s.getName().equals(name)).toList();
    }

    private static List<String> names(List<SpanData> all) {
        return all.stream().map(SpanData::getName).toList();
    }

    private static void awaitStatus(Worldflow wf, String runId, RunStatus status) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (wf.handle(runId).status() != status) {
            if (System.nanoTime() > end) {
                throw new AssertionError(runId + " did not become " + status + " (is "
                        + wf.handle(runId).status() + ")");
            }
            Thread.onSpinWait();
        }
    }
}
