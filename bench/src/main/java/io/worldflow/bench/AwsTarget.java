package io.worldflow.bench;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The aws world on local emulators: DynamoDB Local and ElasticMQ (an SQS server) started in the driver's JVM
 * on free ports, with new tables and queues (a new prefix) per workload. Informative only: the emulators share
 * the machine and the driver's process, and are not DynamoDB's and SQS's performance.
 */
final class AwsTarget implements Target {

    private final DynamoDBProxyServer dynamo;
    private final SQSRestServer sqs;
    private final int dynamoPort;
    private final int sqsPort;
    private final AtomicInteger workloads = new AtomicInteger();

    AwsTarget() {
        try (ServerSocket s = new ServerSocket(0)) {
            dynamoPort = s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for DynamoDB Local", e);
        }
        try {
            dynamo = ServerRunner.createServerFromCommandLineArgs(
                    new String[] {"-inMemory", "-port", String.valueOf(dynamoPort), "-disableTelemetry"});
            dynamo.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start DynamoDB Local on port " + dynamoPort, e);
        }
        sqs = SQSRestServerBuilder.withInterface("127.0.0.1").withDynamicPort().start();
        sqsPort = sqs.waitUntilStarted().localAddress().getPort();
    }

    @Override
    public String name() {
        return "aws";
    }

    @Override
    public String describe() {
        return "DynamoDB Local 2.6.1 on port " + dynamoPort + ", ElasticMQ 1.7.1 on port " + sqsPort
                + " (in the driver's JVM; informative only)";
    }

    @Override
    public Map<String, String> freshWorld(String label) {
        String prefix = "b" + workloads.incrementAndGet() + label.toLowerCase().replaceAll("[^a-z0-9]", "") + "_";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("worldflow.world", "aws");
        p.put("worldflow.aws.region", "us-east-1");
        p.put("worldflow.aws.dynamodb-endpoint", "http://127.0.0.1:" + dynamoPort);
        p.put("worldflow.aws.sqs-endpoint", "http://127.0.0.1:" + sqsPort);
        p.put("worldflow.aws.access-key-id", "bench");
        p.put("worldflow.aws.secret-access-key", "bench");
        p.put("worldflow.aws.table-prefix", prefix);
        p.put("worldflow.aws.queue-prefix", prefix);
        return p;
    }

    /** The AWS world pushes no end notices across processes: the driver looks runs up. */
    @Override
    public boolean pushesEnds() {
        return false;
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public void close() {
        sqs.stopAndWait();
        try {
            dynamo.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping DynamoDB Local", e);
        }
    }
}
