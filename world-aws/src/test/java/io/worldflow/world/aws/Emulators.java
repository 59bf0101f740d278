package io.worldflow.world.aws;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import io.worldflow.spi.WorldConfig;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import java.util.UUID;

/**
 * DynamoDB Local and ElasticMQ, started once per JVM on free ports (in-process, in memory) and stopped by a
 * shutdown hook. Each test gets its own table and queue prefix, so tests never see each other's data.
 */
public final class Emulators {

    private static Emulators shared;

    private final DynamoDBProxyServer dynamo;
    private final SQSRestServer sqs;
    private final int dynamoPort;
    private final int sqsPort;

    private Emulators() throws Exception {
        dynamoPort = freePort();
        dynamo = ServerRunner.createServerFromCommandLineArgs(
                new String[] {"-inMemory", "-port", String.valueOf(dynamoPort), "-disableTelemetry"});
        dynamo.start();
        sqs = SQSRestServerBuilder.withInterface("127.0.0.1").withDynamicPort().start();
        sqsPort = sqs.waitUntilStarted().localAddress().getPort();
    }

    public static synchronized Emulators shared() {
        if (shared == null) {
            try {
                shared = new Emulators();
            } catch (Exception e) {
                throw new IllegalStateException("could not start DynamoDB Local and ElasticMQ", e);
            }
            Emulators started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "emulators-stop"));
        }
        return shared;
    }

    private void stop() {
        try {
            sqs.stopAndWait();
        } catch (RuntimeException ignored) {
            // the JVM is exiting
        }
        try {
            dynamo.stop();
        } catch (Exception ignored) {
            // the JVM is exiting
        }
    }

    /** A client of the emulated DynamoDB, for a test to look at or prepare tables itself; the caller closes it. */
    public DynamoDbClient dynamoClient() {
        return DynamoDbClient.builder()
                .endpointOverride(URI.create(dynamoEndpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public String dynamoEndpoint() {
        return "http://127.0.0.1:" + dynamoPort;
    }

    public String sqsEndpoint() {
        return "http://127.0.0.1:" + sqsPort;
    }

    /** A fresh prefix for a test's tables and queues. */
    public static String freshPrefix() {
        return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
    }

    /**
     * The system property that runs the tests with their index keys spread over this many shards (the build runs the
     * conformance kit, payload-limit, fault and Lambda tests again with 16); unset, the world's default of one.
     */
    public static final String SHARDS_PROPERTY = "worldflow.test.aws.index-shards";

    /** Configuration of a world over the emulators with this prefix for its tables and queues. */
    public WorldConfig config(String prefix) {
        WorldConfig config = plainConfig(prefix);
        String shards = System.getProperty(SHARDS_PROPERTY);
        return shards == null ? config : config.with(AwsWorldProvider.INDEX_SHARDS, shards);
    }

    private WorldConfig plainConfig(String prefix) {
        return WorldConfig.of(Map.of(
                "worldflow.world",
                "aws",
                AwsWorldProvider.REGION,
                "us-east-1",
                AwsWorldProvider.DYNAMODB_ENDPOINT,
                dynamoEndpoint(),
                AwsWorldProvider.SQS_ENDPOINT,
                sqsEndpoint(),
                AwsWorldProvider.TABLE_PREFIX,
                prefix,
                AwsWorldProvider.QUEUE_PREFIX,
                prefix.replace('_', '-'),
                AwsWorldProvider.ACCESS_KEY_ID,
                "test",
                AwsWorldProvider.SECRET_ACCESS_KEY,
                "test",
                AwsWorldProvider.WAKE_POLL,
                "2s"));
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
