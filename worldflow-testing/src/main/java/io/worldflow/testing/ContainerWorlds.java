package io.worldflow.testing;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration that puts Worldflow on a server in a Testcontainers container, for tests that run on the
 * {@code postgres} or the {@code aws} world instead of the test kit's local one:
 *
 * <pre>{@code
 * PostgreSQLContainer pg = new PostgreSQLContainer("postgres:17"); // or a static field with @Container
 * pg.start();
 * try (Worldflow wf = Worldflow.builder().properties(ContainerWorlds.postgres(pg)).register(fulfil).build()) { ... }
 * }</pre>
 *
 * <p>The properties are the world's own configuration keys ({@code worldflow.world}, {@code worldflow.postgres.*},
 * {@code worldflow.aws.*}), so they serve a Spring context or a {@code worldflow.properties} file as well; system
 * properties and {@code WORLDFLOW_*} variables still take precedence over properties given to a builder.
 *
 * <p>Testcontainers is an optional dependency of this module: a test that uses this class declares
 * {@code org.testcontainers:testcontainers-postgresql} or {@code testcontainers-localstack}, and the world's artifact
 * ({@code world-postgres} or {@code world-aws}).
 */
public final class ContainerWorlds {

    /** Where Docker's socket is when {@code DOCKER_HOST} does not say otherwise. */
    private static final Path DEFAULT_SOCKET = Path.of("/var/run/docker.sock");

    private ContainerWorlds() {}

    /**
     * The {@code postgres} world's configuration for the database of a started container: its JDBC URL, user and
     * password. Tables go in the world's default schema unless {@code worldflow.postgres.schema} is added.
     *
     * @throws IllegalStateException when the container has not been started (its port is not known yet)
     */
    public static Map<String, String> postgres(PostgreSQLContainer container) {
        requireStarted(container.getContainerId(), "PostgreSQL");
        return postgresProperties(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }

    /**
     * The {@code aws} world's configuration for DynamoDB and SQS in a started LocalStack container: its one endpoint
     * for both services, its region and its static credentials. Tables and queues are created on the first start.
     *
     * @throws IllegalStateException when the container has not been started (its port is not known yet)
     */
    public static Map<String, String> aws(LocalStackContainer container) {
        requireStarted(container.getContainerId(), "LocalStack");
        return awsProperties(
                container.getEndpoint(), container.getRegion(), container.getAccessKey(), container.getSecretKey());
    }

    /**
     * Fails unless Testcontainers finds a Docker engine, with a one-line message that says so, for tests that must
     * not pass by being skipped (Testcontainers' own {@code disabledWithoutDocker} skips them).
     *
     * @param who what needs Docker, the start of the message (e.g. {@code "OrderOnPostgresTest"})
     * @throws IllegalStateException when no Docker engine answers
     */
    public static void requireDocker(String who) {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException(
                    dockerMissing(who, System.getenv("DOCKER_HOST"), Files.exists(DEFAULT_SOCKET)));
        }
    }

    static Map<String, String> postgresProperties(String jdbcUrl, String user, String password) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("worldflow.world", "postgres");
        p.put("worldflow.postgres.url", Objects.requireNonNull(jdbcUrl, "jdbcUrl"));
        p.put("worldflow.postgres.user", Objects.requireNonNull(user, "user"));
        p.put("worldflow.postgres.password", Objects.requireNonNull(password, "password"));
        return Collections.unmodifiableMap(p);
    }

    static Map<String, String> awsProperties(URI endpoint, String region, String accessKey, String secretKey) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("worldflow.world", "aws");
        p.put("worldflow.aws.region", Objects.requireNonNull(region, "region"));
        // LocalStack serves every service on one port, so one endpoint covers DynamoDB and SQS
        p.put("worldflow.aws.endpoint", endpoint.toString());
        p.put("worldflow.aws.access-key-id", Objects.requireNonNull(accessKey, "accessKey"));
        p.put("worldflow.aws.secret-access-key", Objects.requireNonNull(secretKey, "secretKey"));
        return Collections.unmodifiableMap(p);
    }

    static String dockerMissing(String who, String dockerHost, boolean defaultSocketExists) {
        String where;
        if (dockerHost != null && !dockerHost.isBlank()) {
            where = "nothing answers at DOCKER_HOST=" + dockerHost.strip();
        } else if (defaultSocketExists) {
            where = "nothing answers at " + DEFAULT_SOCKET + " and DOCKER_HOST is not set";
        } else {
            where = "DOCKER_HOST is not set and there is no " + DEFAULT_SOCKET;
        }
        return who + " needs a Docker engine: none found (" + where + "; Testcontainers' log lists what it tried)";
    }

    private static void requireStarted(String containerId, String what) {
        if (containerId == null) {
            throw new IllegalStateException(
                    "the " + what + " container is not started: start it (or let @Container do it) first");
        }
    }
}
