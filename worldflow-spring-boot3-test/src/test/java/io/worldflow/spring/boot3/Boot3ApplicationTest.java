package io.worldflow.spring.boot3;

import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.annotation.Step;
import io.worldflow.annotation.WorkflowMethod;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.health.CompositeHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The starter, built against Spring Boot 4, inside a Spring Boot 3.5 application with Actuator. */
@SpringBootTest(
        properties = {
            "worldflow.local.path=target/boot3-test.db",
            "worldflow.worker.shutdown-grace=1s",
            "management.endpoint.health.show-details=always"
        })
class Boot3ApplicationTest {

    public interface Shouts {
        @Step
        String shout(String word);
    }

    /** A Spring service the workflow's step calls. */
    public static class Shouter implements Shouts {
        @Override
        public String shout(String word) {
            return word.toUpperCase() + "!";
        }
    }

    public static class ShoutWorkflow {
        private final Shouts shouts;

        public ShoutWorkflow(Shouter shouter) {
            this.shouts = Workflow.steps(Shouts.class, shouter);
        }

        @WorkflowMethod("shout.boot3.v1")
        public String run(String word) {
            return shouts.shout(word);
        }
    }

    @SpringBootApplication
    static class App {
        @Bean
        Shouter shouter() {
            return new Shouter();
        }

        @Bean
        ShoutWorkflow shoutWorkflow(Shouter shouter) {
            return new ShoutWorkflow(shouter);
        }
    }

    @Autowired
    Worldflow worldflow;

    @Autowired
    ApplicationContext context;

    @Autowired
    HealthEndpoint healthEndpoint;

    @Test
    void runsOnSpringBoot3() {
        assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
        // Boot 4's health API is not here, so only the Boot 3 indicator can have been made
        assertThat(ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator", null))
                .isFalse();
    }

    @Test
    void runsAWorkflowBeanToCompletion() {
        var run = worldflow.start("shout.boot3.v1", "hey", StartOptions.defaults());
        assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("HEY!");
    }

    @Test
    void reportsHealthThroughBoot3sActuator() {
        HealthIndicator indicator = context.getBean("worldflowHealthIndicator", HealthIndicator.class);
        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails())
                .containsEntry("world", "local")
                .containsEntry("worker", "running")
                .containsKey("heldRuns");

        // and Actuator's health endpoint lists it as the "worldflow" component
        CompositeHealth all = (CompositeHealth) healthEndpoint.health();
        assertThat(all.getComponents()).containsKey("worldflow");
        assertThat(all.getComponents().get("worldflow").getStatus()).isEqualTo(Status.UP);
    }
}
