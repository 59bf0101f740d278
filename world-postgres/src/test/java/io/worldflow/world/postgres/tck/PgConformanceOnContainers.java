package io.worldflow.world.postgres.tck;

import io.worldflow.world.postgres.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The conformance kit on the Postgres world, on PostgreSQL in a Testcontainers container. Only {@code -Pcontainers}
 * runs it (its name does not end in {@code Test}); the plain build runs {@link PgConformanceTest} on an embedded
 * server, which needs no Docker. The image is {@value #DEFAULT_IMAGE} unless the system property
 * {@value #IMAGE_PROPERTY} names another.
 */
class PgConformanceOnContainers extends PgConformance {

    static final String IMAGE_PROPERTY = "worldflow.containers.postgres-image";
    static final String DEFAULT_IMAGE = "postgres:17";

    private static PostgreSQLContainer container;
    private static TestPostgres server;

    @BeforeAll
    static void startPostgres() {
        // fail, never skip: a green run without Docker would report a conformance nobody checked
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException("-Pcontainers needs a Docker engine: none found (Testcontainers tried"
                    + " DOCKER_HOST and the usual sockets; its log is in target/surefire-reports)");
        }
        // a mirror's copy of the image is accepted as PostgreSQL
        DockerImageName image = DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE))
                .asCompatibleSubstituteFor("postgres");
        container = new PostgreSQLContainer(image)
                // the kit opens many worlds at once, each with a pool of its own; the image's default command would
                // also turn fsync off, which production never does
                .withCommand("postgres", "-c", "max_connections=300");
        container.start();
        server = TestPostgres.at(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }

    @AfterAll
    static void stopPostgres() {
        if (container != null) {
            container.stop();
        }
    }

    @Override
    protected TestPostgres server() {
        return server;
    }
}
