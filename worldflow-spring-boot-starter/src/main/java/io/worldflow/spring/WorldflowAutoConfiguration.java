package io.worldflow.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.worldflow.ConfigurationException;
import io.worldflow.dashboard.Authenticator;
import io.worldflow.dashboard.Dashboard;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spring.internal.ApplicationDatabase;
import io.worldflow.spring.internal.Boot3HealthIndicator;
import io.worldflow.spring.internal.Boot4HealthIndicator;
import io.worldflow.spring.internal.SignalRoutes;
import io.worldflow.spring.internal.WorkerLifecycle;
import io.worldflow.spring.internal.WorkflowBeans;
import io.worldflow.spring.internal.WorldflowHealth;
import io.worldflow.spring.internal.WorldflowProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A {@link Worldflow} built from the environment's {@code worldflow.*} properties (the keys of the README's
 * configuration table), with every workflow bean of the context registered, the application's {@link MeterRegistry}
 * and {@link OpenTelemetry} when it has them, and on the {@code postgres} world with no
 * {@code worldflow.postgres.url}, the database of the application's {@link DataSource}. Around it: the worker, run with
 * the context ({@code worldflow.worker.enabled}), a health indicator for Actuator, the dashboard on its own port
 * ({@code worldflow.dashboard.enabled}) and the signal endpoint in a Spring MVC application that has a signal secret.
 * Each bean backs off when the application defines its own.
 */
@AutoConfiguration(
        afterName = {
            // Boot 4 and Boot 3 names: the registry and data source are then defined before this looks for them
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
            "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
        })
public class WorldflowAutoConfiguration {

    /** Set to {@code false} to run no worker in this application: it then only starts, signals and reads runs. */
    public static final String WORKER_ENABLED = "worldflow.worker.enabled";
    /** Set to {@code true} to serve the dashboard, on its own port ({@code worldflow.dashboard.port}). */
    public static final String DASHBOARD_ENABLED = "worldflow.dashboard.enabled";
    /** Set to {@code false} to leave the signal endpoint unmounted although a signal secret is configured. */
    public static final String SIGNAL_ENDPOINT_ENABLED = "worldflow.signal.endpoint.enabled";

    /** Set to {@code false} to leave the {@code worldflow} health indicator out of Actuator's health. */
    public static final String HEALTH_ENABLED = "management.health.worldflow.enabled";

    private static final String POSTGRES = "postgres";
    private static final Logger LOG = LoggerFactory.getLogger(WorldflowAutoConfiguration.class);

    /** Checks the switches first, whether or not the application defines its own {@link Worldflow}. */
    public WorldflowAutoConfiguration(ConfigurableEnvironment environment) {
        checkSwitches(environment);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Worldflow worldflow(
            ConfigurableEnvironment environment,
            ListableBeanFactory beans,
            ObjectProvider<MeterRegistry> meterRegistry,
            ObjectProvider<OpenTelemetry> openTelemetry,
            ObjectProvider<DataSource> dataSource,
            ObjectProvider<WorldflowBuilderCustomizer> customizers) {
        Map<String, String> properties = WorldflowProperties.of(environment);
        Worldflow.Builder builder = Worldflow.builder().properties(properties);
        // the starter's own keys, so that the builder does not warn of them as keys nothing reads
        List.of(WORKER_ENABLED, SIGNAL_ENDPOINT_ENABLED).forEach(builder::knownKey);
        // what the world will see, system properties and WORLDFLOW_* variables included
        WorldConfig config = WorldflowConfig.load(properties, List.of());
        if (POSTGRES.equals(config.get(WorldflowConfig.WORLD, "local"))
                && config.get(ApplicationDatabase.URL).isEmpty()) {
            DataSource ds = dataSource.getIfUnique();
            if (ds != null) {
                builder.properties(ApplicationDatabase.settings(ds, environment));
            }
        }
        WorkflowBeans.find(beans).forEach(builder::register);
        meterRegistry.ifUnique(builder::meterRegistry);
        openTelemetry.ifUnique(builder::openTelemetry);
        customizers.orderedStream().forEach(c -> c.customize(builder));
        return builder.build();
    }

    /**
     * The starter's switches are read by {@code @ConditionalOnProperty}, which takes anything but {@code true} (in any
     * case, and with nothing around it) as off: {@code worldflow.worker.enabled=yes}, or {@code true} with a trailing
     * space, would stop the worker without a word. Any other value stops the context instead, naming the key.
     */
    private static void checkSwitches(ConfigurableEnvironment environment) {
        for (String key : List.of(WORKER_ENABLED, DASHBOARD_ENABLED, SIGNAL_ENDPOINT_ENABLED, HEALTH_ENABLED)) {
            String value = environment.getProperty(key);
            if (value != null && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                throw new ConfigurationException(key + " must be true or false, was '" + value + "'"
                        + (value.strip().equalsIgnoreCase("true")
                                        || value.strip().equalsIgnoreCase("false")
                                ? " (spaces around it are part of the value)"
                                : ""));
            }
        }
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = WORKER_ENABLED, havingValue = "true", matchIfMissing = true)
    public WorkerLifecycle worldflowWorker(Worldflow worldflow, ObjectProvider<WorkerOptions> options) {
        // read here, so that a bad worldflow.worker.* value stops the context from starting, naming the key
        WorkerOptions chosen = options.getIfAvailable(() -> WorkerOptions.fromConfig(worldflow.config()));
        return new WorkerLifecycle(worldflow, chosen);
    }

    @Bean
    @ConditionalOnMissingBean
    public WorldflowHealth worldflowHealth(Worldflow worldflow, ObjectProvider<WorkerLifecycle> worker) {
        return new WorldflowHealth(worldflow, worker.getIfAvailable());
    }

    /** Spring Boot 4's health API ({@code org.springframework.boot.health}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    @ConditionalOnProperty(name = HEALTH_ENABLED, havingValue = "true", matchIfMissing = true)
    static class Boot4Health {

        @Bean
        @ConditionalOnMissingBean(name = "worldflowHealthIndicator")
        Boot4HealthIndicator worldflowHealthIndicator(WorldflowHealth health) {
            return new Boot4HealthIndicator(health);
        }
    }

    /** Spring Boot 3's health API ({@code org.springframework.boot.actuate.health}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    @ConditionalOnProperty(name = HEALTH_ENABLED, havingValue = "true", matchIfMissing = true)
    static class Boot3Health {

        @Bean
        @ConditionalOnMissingBean(name = "worldflowHealthIndicator")
        Boot3HealthIndicator worldflowHealthIndicator(WorldflowHealth health) {
            return new Boot3HealthIndicator(health);
        }
    }

    /**
     * The dashboard, on its own port: it is a Javalin server, which cannot be mounted in the application's servlet
     * container without changing how it is built.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.worldflow.dashboard.Dashboard")
    @ConditionalOnProperty(name = DASHBOARD_ENABLED, havingValue = "true")
    static class DashboardConfiguration {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        Dashboard worldflowDashboard(Worldflow worldflow, ObjectProvider<Authenticator> authenticator) {
            Dashboard dashboard = Dashboard.start(
                    worldflow, DashboardSettings.fromConfig(worldflow.config()), authenticator.getIfAvailable());
            // a token made up at start exists nowhere else: its login link is the only way in; a configured one is
            // the operator's secret and stays out of the log
            if (dashboard.settings().generated()) {
                LOG.info(
                        "Worldflow dashboard on {}; no {} is configured, so this start's admin token is in the login"
                                + " link: {}",
                        dashboard.url(),
                        DashboardSettings.TOKEN,
                        dashboard.loginUrl());
            } else {
                LOG.info("Worldflow dashboard on {}", dashboard.url());
            }
            return dashboard;
        }
    }

    /**
     * {@value #DASHBOARD_ENABLED} without the dashboard's module: the context does not start, rather than run without
     * the dashboard it was asked for.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("io.worldflow.dashboard.Dashboard")
    @ConditionalOnProperty(name = DASHBOARD_ENABLED, havingValue = "true")
    static class DashboardMissing {

        @Bean
        Object worldflowDashboard() {
            throw new ConfigurationException(DASHBOARD_ENABLED
                    + " is true, but the dashboard is not on the class path: add the dependency"
                    + " io.worldflow:worldflow-dashboard (the starter does not bring it)");
        }
    }

    /** {@code POST /signals/{runId}/{name}?token=…} in a Spring MVC application that signs signal URLs. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.servlet.function.RouterFunction")
    @ConditionalOnProperty(name = SIGNAL_ENDPOINT_ENABLED, havingValue = "true", matchIfMissing = true)
    static class SignalEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "worldflowSignalRoutes")
        @ConditionalOnProperty(name = Worldflow.SIGNAL_SECRET)
        RouterFunction<ServerResponse> worldflowSignalRoutes(Worldflow worldflow) {
            return SignalRoutes.of(worldflow.signalEndpoint());
        }
    }
}
