package io.worldflow.spring;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.worldflow.ConfigurationException;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.dashboard.Dashboard;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spring.internal.WorkerLifecycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorldflowAutoConfigurationTest {

    @TempDir
    Path dir;

    /** Boot 4 only: Boot 3's health API, compiled against, is on this module's test classpath too. */
    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health"))
                .withConfiguration(AutoConfigurations.of(WorldflowAutoConfiguration.class))
                .withPropertyValues(
                        "worldflow.local.path=" + dir.resolve("wf.db"), "worldflow.worker.shutdown-grace=1s");
    }

    @Configuration(proxyBeanMethods = false)
    public static class GreetingApp {
        @Bean
        Greetings.Greeter greeter() {
            return new Greetings.Greeter();
        }

        @Bean
        Greetings greetings(Greetings.Greeter greeter) {
            return new Greetings(greeter);
        }
    }

    @Test
    void runsAWorkflowBeanWhoseStepCallsAnInjectedService() {
        runner().withUserConfiguration(GreetingApp.class).run(context -> {
            assertThat(context).hasNotFailed();
            Worldflow wf = context.getBean(Worldflow.class);
            var run = wf.start(Greetings.NAME, "ada", StartOptions.id("greet-1"));
            assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("Hello, ada!");
            assertThat(context.getBean(Greetings.Greeter.class).calls).hasValue(1);
            assertThat(wf.run("greet-1").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        });
    }

    static final Workflow<String, Integer> LENGTH =
            Workflow.define("length.v1", String.class, Integer.class, (ctx, in) -> ctx.step("count", in::length));

    @Configuration(proxyBeanMethods = false)
    static class LambdaApp {
        @Bean
        Workflow<String, Integer> length() {
            return LENGTH;
        }
    }

    @Test
    void registersWorkflowBeansOfTheLambdaStyle() {
        runner().withUserConfiguration(LambdaApp.class).run(context -> {
            Worldflow wf = context.getBean(Worldflow.class);
            assertThat(wf.workflowNames()).contains("length.v1");
            assertThat(wf.start(LENGTH, "four").result(Duration.ofSeconds(20))).isEqualTo(4);
        });
    }

    @Test
    void passesTheWorldflowPropertiesOfTheEnvironmentToTheBuilder() {
        runner().withPropertyValues("worldflow.worker.concurrency=7", "worldflow.worker.queues=a,b")
                .run(context -> {
                    Worldflow wf = context.getBean(Worldflow.class);
                    assertThat(wf.config().get("worldflow.worker.concurrency")).contains("7");
                    assertThat(Files.exists(dir.resolve("wf.db"))).isTrue();
                    WorkerLifecycle worker = context.getBean(WorkerLifecycle.class);
                    assertThat(worker.options().concurrency()).isEqualTo(7);
                    assertThat(worker.options().queues()).containsExactlyInAnyOrder("a", "b");
                    assertThat(worker.options().handleSigterm()).isFalse();
                });
    }

    @Test
    void aBadWorkerValueStopsTheContextWithWorldflowsMessage() {
        runner().withPropertyValues("worldflow.worker.concurrency=lots").run(context -> {
            assertThat(context).hasFailed();
            String message = "worldflow.worker.concurrency must be a whole number, was 'lots'";
            assertThat(configurationError(context.getStartupFailure())).hasMessageContaining(message);
            // Spring's own message names it too, which is what the application's log shows first
            assertThat(context.getStartupFailure()).hasMessageContaining(message);
        });
    }

    @Test
    void aMisspeltKeyIsWarnedOfAndTheStartersOwnKeysAreNot() {
        List<String> logged = capture(io.worldflow.runtime.internal.UnknownKeys.class);
        runner().withPropertyValues(
                        "worldflow.worker.enabled=true",
                        "worldflow.signal.endpoint.enabled=true",
                        "worldflow.worker.concurrancy=5")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(logged)
                            .containsExactly("configuration key worldflow.worker.concurrancy changes nothing: neither"
                                    + " Worldflow nor a world on the class path reads it; did you mean"
                                    + " worldflow.worker.concurrency?");
                });
    }

    @Test
    void aSwitchThatIsNeitherTrueNorFalseStopsTheContextRatherThanTurningSomethingOff() {
        for (String key : List.of(
                "worldflow.worker.enabled", "worldflow.dashboard.enabled", "worldflow.signal.endpoint.enabled")) {
            runner().withPropertyValues(key + "=yes").run(context -> {
                assertThat(context).hasFailed();
                assertThat(configurationError(context.getStartupFailure()))
                        .hasMessageContaining(key + " must be true or false, was 'yes'");
            });
        }
        runner().withPropertyValues("worldflow.worker.enabled=FALSE").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(WorkerLifecycle.class);
        });
    }

    @Test
    void aSwitchWithSpacesAroundItOrTheHealthSwitchOrOneBesideTheApplicationsOwnWorldflowIsCheckedToo() {
        // as a properties file can hold it: Spring's own conditions would take "true " as off
        runner().withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new MapPropertySource("file", java.util.Map.of("worldflow.worker.enabled", "true "))))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(configurationError(context.getStartupFailure()))
                            .hasMessageContaining("worldflow.worker.enabled must be true or false, was 'true '")
                            .hasMessageContaining("spaces around it are part of the value");
                });
        runner().withPropertyValues("management.health.worldflow.enabled=yes").run(context -> {
            assertThat(context).hasFailed();
            assertThat(configurationError(context.getStartupFailure()))
                    .hasMessageContaining("management.health.worldflow.enabled must be true or false, was 'yes'");
        });
        runner().withUserConfiguration(OwnWorldflowApp.class)
                .withPropertyValues("worldflow.dashboard.enabled=on")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(configurationError(context.getStartupFailure()))
                            .hasMessageContaining("worldflow.dashboard.enabled must be true or false, was 'on'");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnWorldflowApp {
        @Bean(destroyMethod = "close")
        Worldflow worldflow(org.springframework.core.env.Environment environment) {
            return Worldflow.builder()
                    .property("worldflow.local.path", environment.getProperty("worldflow.local.path"))
                    .register(LENGTH)
                    .build();
        }
    }

    @Test
    void aWorkerValueOutOfItsRangeStopsTheContextNamingItsKey() {
        for (String[] bad : new String[][] {
            {"worldflow.worker.concurrency=0", "worldflow.worker.concurrency must be 1..100000, was 0"},
            {"worldflow.worker.lease=100ms", "worldflow.worker.lease must be at least 300ms, was 100ms"},
            {"worldflow.worker.poll-interval=0s", "worldflow.worker.poll-interval must be at least 1ms, was 0s"},
            {"worldflow.worker.hold-retry=0s", "worldflow.worker.hold-retry must be at least 1ms, was 0s"},
            {"worldflow.worker.queues=,", "worldflow.worker.queues must name at least one queue, was ','"}
        }) {
            runner().withPropertyValues(bad[0]).run(context -> {
                assertThat(context).hasFailed();
                assertThat(configurationError(context.getStartupFailure())).hasMessageContaining(bad[1]);
            });
        }
    }

    @Test
    void aContextStoppedAndStartedAgainRunsItsWorkerAgain() {
        runner().withUserConfiguration(LambdaApp.class).run(context -> {
            Worldflow wf = context.getBean(Worldflow.class);
            assertThat(wf.start(LENGTH, "one").result(Duration.ofSeconds(20))).isEqualTo(3);

            context.stop();
            assertThat(context.getBean(WorkerLifecycle.class).isRunning()).isFalse();
            var waiting = wf.start(LENGTH, "stopped", StartOptions.id("while-stopped"));
            Thread.sleep(300);
            assertThat(wf.run("while-stopped").orElseThrow().status())
                    .as("no worker runs it while the context is stopped")
                    .isEqualTo(RunStatus.PENDING);

            context.start();
            assertThat(waiting.result(Duration.ofSeconds(20))).isEqualTo(7);
            assertThat(wf.start(LENGTH, "again").result(Duration.ofSeconds(20))).isEqualTo(5);
        });
    }

    @Test
    void anUnknownWorldStopsTheContextWithWorldflowsMessage() {
        runner().withPropertyValues("worldflow.world=moon").run(context -> {
            assertThat(context).hasFailed();
            assertThat(configurationError(context.getStartupFailure())).hasMessageContaining("unknown world 'moon'");
        });
    }

    private static ConfigurationException configurationError(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConfigurationException e) {
                return e;
            }
        }
        throw new AssertionError("no ConfigurationException in the failure", failure);
    }

    @Test
    void backsOffWhenTheApplicationDefinesItsOwnWorldflow() {
        Path own = dir.resolve("own.db");
        runner().withBean(
                        "myWorldflow",
                        Worldflow.class,
                        () -> Worldflow.builder()
                                .property("worldflow.local.path", own.toString())
                                .build())
                .run(context -> {
                    assertThat(context).hasSingleBean(Worldflow.class);
                    assertThat(context.getBean(Worldflow.class).config().get("worldflow.local.path"))
                            .contains(own.toString());
                    assertThat(context).hasBean("myWorldflow").doesNotHaveBean("worldflow");
                });
    }

    @Test
    void theWorkerRunsWithTheContextAndStopsWhenItCloses() {
        Worldflow[] seen = new Worldflow[1];
        runner().withUserConfiguration(GreetingApp.class).run(context -> {
            assertThat(context.getBean(WorkerLifecycle.class).isRunning()).isTrue();
            seen[0] = context.getBean(Worldflow.class);
        });
        assertThatThrownBy(() -> seen[0].start(Greetings.NAME, "late", StartOptions.defaults()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    static final CountDownLatch SLOW_STEP_STARTED = new CountDownLatch(1);

    static final Workflow<String, String> SLOW = Workflow.define(
            "slow.v1",
            String.class,
            String.class,
            (ctx, in) -> ctx.step("slow", () -> {
                SLOW_STEP_STARTED.countDown();
                Thread.sleep(500);
                return in;
            }));

    @Test
    void closingTheContextLetsARunningStepFinishWithinTheShutdownGrace() throws Exception {
        String[] runId = new String[1];
        runner().withBean("slow", Workflow.class, () -> SLOW)
                .withPropertyValues("worldflow.worker.shutdown-grace=5s")
                .run(context -> {
                    runId[0] = context.getBean(Worldflow.class).start(SLOW, "x").id();
                    assertThat(SLOW_STEP_STARTED.await(10, TimeUnit.SECONDS)).isTrue();
                    // the context closes here, while the step sleeps
                });
        try (Worldflow reopened = Worldflow.builder()
                .property("worldflow.local.path", dir.resolve("wf.db").toString())
                .build()) {
            assertThat(reopened.events(runId[0]).stream().map(e -> e.type())).contains("StepCompleted");
        }
    }

    @Test
    void theWorkerCanBeTurnedOff() {
        runner().withUserConfiguration(GreetingApp.class)
                .withPropertyValues("worldflow.worker.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(WorkerLifecycle.class);
                    Worldflow wf = context.getBean(Worldflow.class);
                    var run = wf.start(Greetings.NAME, "nobody", StartOptions.defaults());
                    // no worker in this process: the run waits for one
                    assertThat(wf.run(run.id()).orElseThrow().status()).isEqualTo(RunStatus.PENDING);
                    Health health = context.getBean("worldflowHealthIndicator", HealthIndicator.class)
                            .health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("worker", "disabled");
                });
    }

    @Test
    void healthIsUpWithDetailsAndDownWhenTheWorldCannotBeRead() {
        runner().run(context -> {
            HealthIndicator indicator = context.getBean("worldflowHealthIndicator", HealthIndicator.class);
            Health up = indicator.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails())
                    .containsEntry("world", "local")
                    .containsEntry("worker", "running")
                    .containsEntry("heldRuns", 0L);

            context.getBean(Worldflow.class).close(); // the world's file is closed
            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) down.getDetails().get("error")).contains("the world cannot be read");
        });
    }

    @Test
    void theHealthIndicatorCanBeTurnedOff() {
        runner().withPropertyValues("management.health.worldflow.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("worldflowHealthIndicator"));
    }

    @Test
    void usesTheApplicationsMeterRegistry() {
        runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            Worldflow wf = context.getBean(Worldflow.class);
            assertThat(wf.meterRegistry()).containsSame(context.getBean(MeterRegistry.class));
        });
        runner().run(context ->
                assertThat(context.getBean(Worldflow.class).meterRegistry()).isEmpty());
    }

    @Test
    void tracesIntoTheApplicationsOpenTelemetry() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .build();
        runner().withUserConfiguration(GreetingApp.class)
                .withBean(OpenTelemetry.class, () -> sdk)
                .run(context -> {
                    Worldflow wf = context.getBean(Worldflow.class);
                    var run = wf.start(Greetings.NAME, "otto", StartOptions.id("traced-1"));
                    assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("Hello, otto!");
                    // read before the context closes: it shuts the SDK down, and the exporter forgets its spans
                    assertThat(spans.getFinishedSpanItems())
                            .isNotEmpty()
                            .anySatisfy(span -> assertThat(
                                            span.getAttributes().get(AttributeKey.stringKey("worldflow.run.id")))
                                    .isEqualTo("traced-1"));
                });
    }

    @Test
    void appliesTheApplicationsBuilderCustomizers() {
        runner().withBean(WorldflowBuilderCustomizer.class, () -> b -> b.register(LENGTH))
                .run(context -> assertThat(context.getBean(Worldflow.class).workflowNames())
                        .contains("length.v1"));
    }

    @Test
    void servesTheDashboardOnItsOwnPortWhenEnabled() throws Exception {
        int[] port = new int[1];
        List<String> logged = capture(WorldflowAutoConfiguration.class);
        runner().withPropertyValues(
                        "worldflow.dashboard.enabled=true",
                        "worldflow.dashboard.port=0",
                        "worldflow.dashboard.token=spring-dashboard-token-1234")
                .run(context -> {
                    Dashboard dashboard = context.getBean(Dashboard.class);
                    port[0] = dashboard.port();
                    HttpResponse<String> response = HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(URI.create(dashboard.url() + "/api/counts"))
                                            .header("Authorization", "Bearer spring-dashboard-token-1234")
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                    assertThat(response.statusCode()).isEqualTo(200);
                });
        assertThat(port[0]).isPositive();
        assertThatThrownBy(() -> HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port[0] + "/api/counts"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(java.io.IOException.class);
        runner().run(context -> assertThat(context).doesNotHaveBean(Dashboard.class));
        assertThat(logged).anyMatch(l -> l.startsWith("Worldflow dashboard on http://127.0.0.1:" + port[0]));
        assertThat(logged)
                .as("a configured token is the operator's secret")
                .noneMatch(l -> l.contains("spring-dashboard-token-1234"));
    }

    @Test
    void aDashboardWithoutAConfiguredTokenLogsTheLoginLinkWithTheTokenMadeForThisStart() {
        List<String> logged = capture(WorldflowAutoConfiguration.class);
        runner().withPropertyValues("worldflow.dashboard.enabled=true", "worldflow.dashboard.port=0")
                .run(context -> {
                    Dashboard dashboard = context.getBean(Dashboard.class);
                    assertThat(dashboard.settings().generated()).isTrue();
                    assertThat(logged)
                            .anyMatch(l -> l.contains("no worldflow.dashboard.token is configured")
                                    && l.endsWith(dashboard.loginUrl().toString()));
                });
    }

    @Test
    void theDashboardEnabledWithoutItsModuleStopsTheContextNamingTheDependency() {
        ApplicationContextRunner withoutDashboard = new ApplicationContextRunner()
                .withClassLoader(
                        new FilteredClassLoader("org.springframework.boot.actuate.health", "io.worldflow.dashboard"))
                .withConfiguration(AutoConfigurations.of(WorldflowAutoConfiguration.class))
                .withPropertyValues("worldflow.local.path=" + dir.resolve("no-dashboard.db"));
        withoutDashboard.withPropertyValues("worldflow.dashboard.enabled=true").run(context -> {
            assertThat(context).hasFailed();
            assertThat(configurationError(context.getStartupFailure()))
                    .hasMessage("worldflow.dashboard.enabled is true, but the dashboard is not on the class path: add"
                            + " the dependency io.worldflow:worldflow-dashboard (the starter does not bring it)");
        });
        withoutDashboard.run(context -> assertThat(context).hasNotFailed().hasSingleBean(Worldflow.class));
    }

    /** What {@code type}'s logger logs from now on, as formatted messages. */
    private static List<String> capture(Class<?> type) {
        List<String> logged = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                logged.add(event.getFormattedMessage());
            }
        };
        appender.start();
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(type);
        logger.setLevel(ch.qos.logback.classic.Level.INFO);
        logger.addAppender(appender);
        return logged;
    }

    @Test
    void mountsTheSignalEndpointInAServletApplicationThatHasASecret() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health"))
                .withConfiguration(AutoConfigurations.of(WorldflowAutoConfiguration.class))
                .withPropertyValues("worldflow.local.path=" + dir.resolve("web.db"));
        web.withPropertyValues("worldflow.signal.secret=0123456789abcdef0123456789abcdef")
                .run(context -> assertThat(context).hasBean("worldflowSignalRoutes"));
        web.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("worldflowSignalRoutes"));
        runner().withPropertyValues("worldflow.signal.secret=0123456789abcdef0123456789abcdef")
                .run(context -> assertThat(context).doesNotHaveBean("worldflowSignalRoutes"));
    }
}
