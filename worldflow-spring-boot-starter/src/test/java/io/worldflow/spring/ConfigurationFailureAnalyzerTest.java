package io.worldflow.spring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real application's start with a bad {@code worldflow.*} value: Spring Boot's failure report says what is wrong. */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationFailureAnalyzerTest {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(WorldflowAutoConfiguration.class)
    static class App {}

    @TempDir
    Path dir;

    @Test
    void aBadValueIsReportedInBootsFailureBoxNamingTheKeyAndTheValue(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class)
                        .web(WebApplicationType.NONE)
                        .properties(
                                "worldflow.local.path=" + dir.resolve("wf.db"),
                                "management.health.worldflow.enabled=false",
                                "worldflow.worker.concurrency=lots")
                        .run())
                .hasStackTraceContaining("worldflow.worker.concurrency must be a whole number, was 'lots'");

        // Boot sets its logging up afresh at start: what it reports is read from the console
        assertThat(output.getAll())
                .contains("APPLICATION FAILED TO START")
                .contains("Description:\n\nWorldflow's configuration is wrong: worldflow.worker.concurrency must be a"
                        + " whole number, was 'lots'")
                .contains("Action:\n\nCorrect the worldflow.* setting it names");
    }
}
