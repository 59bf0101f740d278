package io.worldflow.world.postgres;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The same workflow code runs on PostgreSQL by configuration alone. */
@Timeout(60)
class ByConfigurationTest {

    @Test
    void theProviderIsFoundByNameAndDocumentsItsKeys() {
        WorldProvider provider = WorldLoader.providers().stream()
                .filter(p -> p.name().equals("postgres"))
                .findFirst()
                .orElseThrow();

        assertThat(provider).isInstanceOf(PostgresWorldProvider.class);
        assertThat(provider.configKeys())
                .containsOnlyKeys(
                        PostgresWorldProvider.URL,
                        PostgresWorldProvider.USER,
                        PostgresWorldProvider.PASSWORD,
                        PostgresWorldProvider.SCHEMA,
                        PostgresWorldProvider.TABLE_PREFIX,
                        PostgresWorldProvider.POOL_SIZE,
                        PostgresWorldProvider.STARTUP_TIMEOUT,
                        PostgresWorldProvider.VACUUM_TASKS);
    }

    @Test
    void aWorkflowRunsOnPostgresWhenTheConfigurationSaysSo() {
        Workflow<String, String> greet = Workflow.define("greet.v1", String.class, (ctx, name) -> {
            String hello = ctx.step("hello", () -> "hello " + name);
            ctx.sleep("pause", Duration.ofMillis(50));
            return ctx.step("shout", () -> hello.toUpperCase(java.util.Locale.ROOT));
        });
        String schema =
                "byconfig_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        WorldConfig world = TestPostgres.shared().config(schema);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.world", "postgres")
                .properties(world.asMap())
                .register(greet)
                .build()) {
            assertThat(wf.world().name()).isEqualTo("postgres");
            wf.startWorker(WorkerOptions.defaults().withHandleSigterm(false).withWorkerId("by-config"));

            RunHandle<String> run = wf.start(greet, "ana");

            assertThat(run.result(Duration.ofSeconds(30))).isEqualTo("HELLO ANA");
            assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(wf.events(run.id())).extracting(e -> e.type()).contains("TimerFired", "WorkflowCompleted");
        } finally {
            if (!TestPostgres.shared().isEmbedded()) {
                TestPostgres.shared().dropSchemas(java.util.List.of(schema));
            }
        }
    }
}
