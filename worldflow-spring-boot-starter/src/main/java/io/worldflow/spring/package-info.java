/**
 * Spring Boot auto-configuration for Worldflow: a {@link io.worldflow.runtime.Worldflow} bean configured from the
 * application's {@code worldflow.*} properties, with the context's workflow beans registered and its worker started and
 * stopped with the context. {@link io.worldflow.spring.WorldflowBuilderCustomizer} adjusts the builder.
 */
package io.worldflow.spring;
