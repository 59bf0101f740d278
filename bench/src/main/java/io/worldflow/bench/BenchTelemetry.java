package io.worldflow.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.List;

/**
 * Tracing and metrics as a production application sets them up (the SDK's batch processor, every span sampled, a
 * Prometheus registry), with spans exported nowhere: the cost of Worldflow's own spans and meters, not of an exporter.
 * On in the driver and in every worker JVM it starts when {@value #PROPERTY} is {@code on}.
 */
final class BenchTelemetry {

    static final String PROPERTY = "bench.telemetry";

    private BenchTelemetry() {}

    /** Turns it on here and in the worker JVMs started from now on. */
    static void enable() {
        System.setProperty(PROPERTY, "on");
        String flag = "-D" + PROPERTY + "=on";
        String args = System.getProperty("bench.worker.jvm-args", "");
        if (!args.contains(flag)) {
            System.setProperty("bench.worker.jvm-args", (args + " " + flag).strip());
        }
    }

    static void apply(Worldflow.Builder builder) {
        if (!"on".equals(System.getProperty(PROPERTY))) {
            return;
        }
        // exported (to nowhere) ten times a second, so that the queue never fills: the default's 2,048 spans and five
        // seconds drop most spans of a busy second, with a warning logged at every export, which would be measured
        // instead; a queue that waits seconds holds them long enough to weigh on the collector
        SdkTracerProvider tracing = SdkTracerProvider.builder()
                .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite(List.of()))
                        .setScheduleDelay(Duration.ofMillis(100))
                        .setMaxQueueSize(8192)
                        .build())
                .build();
        builder.openTelemetry(OpenTelemetrySdk.builder()
                        .setTracerProvider(tracing)
                        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                        .build())
                .meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }
}
