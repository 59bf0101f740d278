package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.world.aws.AwsWorldProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.Map;

/**
 * The conformance kit on the AWS world, on DynamoDB and SQS in a LocalStack container, reached by configuration
 * alone (one endpoint for both services). Only {@code -Pcontainers} runs it (its name does not end in {@code Test});
 * the plain build runs {@link AwsConformanceTest} on DynamoDB Local and ElasticMQ in-process, which need no Docker.
 * The image is {@value #DEFAULT_IMAGE} unless the system property {@value #IMAGE_PROPERTY} names another.
 */
class AwsConformanceOnContainers extends AwsConformance {

    static final String IMAGE_PROPERTY = "worldflow.containers.localstack-image";
    static final String DEFAULT_IMAGE = "localstack/localstack:4";

    private static LocalStackContainer container;

    @BeforeAll
    static void startLocalStack() {
        // fail, never skip: a green run without Docker would report a conformance nobody checked
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException("-Pcontainers needs a Docker engine: none found (Testcontainers tried"
                    + " DOCKER_HOST and the usual sockets; its log is in target/surefire-reports)");
        }
        // a mirror's copy of the image is accepted as LocalStack
        DockerImageName image = DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE))
                .asCompatibleSubstituteFor("localstack/localstack");
        container = new LocalStackContainer(image).withServices("dynamodb", "sqs");
        container.start();
    }

    @AfterAll
    static void stopLocalStack() {
        if (container != null) {
            container.stop();
        }
    }

    @Override
    protected WorldConfig configWithPrefix(String prefix) {
        return WorldConfig.of(Map.of(
                "worldflow.world",
                AwsWorldProvider.NAME,
                AwsWorldProvider.REGION,
                container.getRegion(),
                AwsWorldProvider.ENDPOINT,
                container.getEndpoint().toString(),
                AwsWorldProvider.TABLE_PREFIX,
                prefix,
                AwsWorldProvider.QUEUE_PREFIX,
                prefix.replace('_', '-'),
                AwsWorldProvider.ACCESS_KEY_ID,
                container.getAccessKey(),
                AwsWorldProvider.SECRET_ACCESS_KEY,
                container.getSecretKey(),
                // the same as on the emulators, so that both runs hold the world to the same configuration
                AwsWorldProvider.WAKE_POLL,
                "2s"));
    }

    @Override
    protected DynamoDbClient dynamoClient() {
        return DynamoDbClient.builder()
                .endpointOverride(container.getEndpoint())
                .region(Region.of(container.getRegion()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(container.getAccessKey(), container.getSecretKey())))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }
}
