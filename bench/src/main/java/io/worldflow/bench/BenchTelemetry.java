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
        // a queue that holds the spans of a busy second (the default's 2,048 drop most of them, with a warning logged
        // at every export, which would be measured instead)
        SdkTracerProvider tracing = SdkTracerProvider.builder()
                .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite(List.of()))
                        .setMaxQueueSize(1 << 16)
                        .setMaxExportBatchSize(4096)
                        .build())
                .build();
        builder.openTelemetry(OpenTelemetrySdk.builder()
                        .setTracerProvider(tracing)
                        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                        .build())
                .meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }
}
