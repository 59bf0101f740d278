package io.worldflow.testing;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.internal.AwsSettings;
import io.worldflow.world.postgres.PostgresWorldProvider;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.net.URI;
import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the containers' coordinates become, held to what the two worlds read; no Docker needed. */
class ContainerWorldsTest {

    @Test
    void postgresPropertiesNameThePostgresWorldAndItsConnection() {
        Map<String, String> p = ContainerWorlds.postgresProperties("jdbc:postgresql://localhost:32771/test", "u", "pw");

        assertThat(p)
                .containsExactly(
                        Map.entry("worldflow.world", "postgres"),
                        Map.entry(PostgresWorldProvider.URL, "jdbc:postgresql://localhost:32771/test"),
                        Map.entry(PostgresWorldProvider.USER, "u"),
                        Map.entry(PostgresWorldProvider.PASSWORD, "pw"));
        assertThat(providerNamed(p.get("worldflow.world"))).isInstanceOf(PostgresWorldProvider.class);
        assertThat(new PostgresWorldProvider().configKeys()).containsKeys(keysOfTheWorld(p));
    }

    @Test
    void awsPropertiesSendDynamoDbAndSqsToTheOneLocalStackEndpoint() {
        Map<String, String> p = ContainerWorlds.awsProperties(
                URI.create("http://127.0.0.1:32772"), "eu-west-1", "test-key", "test-secret");

        assertThat(providerNamed(p.get("worldflow.world"))).isInstanceOf(AwsWorldProvider.class);
        assertThat(new AwsWorldProvider().configKeys()).containsKeys(keysOfTheWorld(p));
        // read the way the aws world reads its configuration when it opens
        AwsSettings settings = AwsSettings.from(WorldConfig.of(p));
        assertThat(settings.region()).isEqualTo("eu-west-1");
        assertThat(settings.dynamoEndpoint()).isEqualTo(URI.create("http://127.0.0.1:32772"));
        assertThat(settings.sqsEndpoint()).isEqualTo(URI.create("http://127.0.0.1:32772"));
        assertThat(settings.accessKeyId()).isEqualTo("test-key");
        assertThat(settings.secretAccessKey()).isEqualTo("test-secret");
    }

    @Test
    void aContainerNotStartedYetIsAClearError() {
        assertThatThrownBy(() -> ContainerWorlds.postgres(new PostgreSQLContainer("postgres:17")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the PostgreSQL container is not started: start it (or let @Container do it) first");
        // (a LocalStackContainer asks Docker for its host as it is made, so none can be made here)
    }

    @Test
    void aMissingDockerEngineIsOneLineThatSaysWhereItLooked() {
        assertThat(ContainerWorlds.dockerMissing("-Pcontainers", null, false))
                .isEqualTo("-Pcontainers needs a Docker engine: none found (DOCKER_HOST is not set and there is no"
                        + " /var/run/docker.sock; Testcontainers' log lists what it tried)")
                .doesNotContain("\n");
        assertThat(ContainerWorlds.dockerMissing("OrderTest", " tcp://build-host:2375 ", true))
                .startsWith("OrderTest needs a Docker engine: none found (nothing answers at "
                        + "DOCKER_HOST=tcp://build-host:2375;");
        assertThat(ContainerWorlds.dockerMissing("OrderTest", "", true))
                .contains("(nothing answers at /var/run/docker.sock and DOCKER_HOST is not set;");
    }

    @Test
    void requireDockerThrowsThatLineWhereTestcontainersFindsNoEngine() {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            ContainerWorlds.requireDocker("OrderTest"); // a machine with Docker: nothing to say
        } else {
            assertThatThrownBy(() -> ContainerWorlds.requireDocker("OrderTest"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("OrderTest needs a Docker engine: none found (")
                    .message()
                    .doesNotContain("\n");
        }
    }

    private static WorldProvider providerNamed(String name) {
        return ServiceLoader.load(WorldProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(provider -> provider.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no world named " + name + " on the classpath"));
    }

    private static String[] keysOfTheWorld(Map<String, String> properties) {
        return properties.keySet().stream()
                .filter(key -> !key.equals("worldflow.world"))
                .toArray(String[]::new);
    }
}
