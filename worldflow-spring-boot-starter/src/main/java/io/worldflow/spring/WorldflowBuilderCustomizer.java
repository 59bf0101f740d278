package io.worldflow.spring;

import io.worldflow.runtime.Worldflow;

/**
 * Adjusts the builder of the auto-configured {@link Worldflow} before it is built, after the properties, the workflow
 * beans, the meter registry and OpenTelemetry have been given to it: to add schedules, queues, a step interceptor or
 * a clock. Every such bean of the context is applied, in their {@link org.springframework.core.annotation.Order}.
 */
@FunctionalInterface
public interface WorldflowBuilderCustomizer {

    void customize(Worldflow.Builder builder);
}
