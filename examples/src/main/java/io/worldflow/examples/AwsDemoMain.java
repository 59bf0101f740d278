package io.worldflow.examples;

import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;

/**
 * The demo on the AWS world without an AWS account: starts DynamoDB Local and ElasticMQ (an SQS server) in this
 * process on free ports, points the {@code aws} world at them, and runs {@link OrderFulfilmentMain} unchanged.
 * The emulators are on the classpath only in the {@code demo-aws} Maven profile, so they are reached by
 * reflection here: {@code ./mvnw -q -pl examples -am package -DskipTests -Pdemo-aws}.
 */
public final class AwsDemoMain {

    private AwsDemoMain() {}

    public static void main(String[] args) throws Exception {
        int dynamoPort;
        try (ServerSocket s = new ServerSocket(0)) {
            dynamoPort = s.getLocalPort();
        }
        Object dynamo = Class.forName("com.amazonaws.services.dynamodbv2.local.main.ServerRunner")
                .getMethod("createServerFromCommandLineArgs", String[].class)
                .invoke(null, (Object)
                        new String[] {"-inMemory", "-port", String.valueOf(dynamoPort), "-disableTelemetry"});
        dynamo.getClass().getMethod("start").invoke(dynamo);
        Object builder = Class.forName("org.elasticmq.rest.sqs.SQSRestServerBuilder")
                .getMethod("withInterface", String.class)
                .invoke(null, "127.0.0.1");
        builder = builder.getClass().getMethod("withDynamicPort").invoke(builder);
        Object sqs = builder.getClass().getMethod("start").invoke(builder);
        Object binding = sqs.getClass().getMethod("waitUntilStarted").invoke(sqs);
        int sqsPort = ((InetSocketAddress)
                        binding.getClass().getMethod("localAddress").invoke(binding))
                .getPort();
        try {
            System.setProperty("worldflow.world", "aws");
            System.setProperty("worldflow.aws.region", "us-east-1");
            System.setProperty("worldflow.aws.dynamodb-endpoint", "http://127.0.0.1:" + dynamoPort);
            System.setProperty("worldflow.aws.sqs-endpoint", "http://127.0.0.1:" + sqsPort);
            System.setProperty("worldflow.aws.access-key-id", "demo");
            System.setProperty("worldflow.aws.secret-access-key", "demo");
            System.setProperty("worldflow.aws.wake-poll", Duration.ofSeconds(2).toSeconds() + "s");
            System.out.println("DynamoDB Local on port " + dynamoPort + ", ElasticMQ (SQS) on port " + sqsPort);
            OrderFulfilmentMain.main(args);
        } finally {
            sqs.getClass().getMethod("stopAndWait").invoke(sqs);
            stopDynamoDbLocal(dynamo);
        }
    }

    /**
     * Stops DynamoDB Local so that nothing of it keeps the JVM alive. Its {@code stop()} shuts each database's job
     * pool down without interrupting it, and in that pool the stream shard roll-over scheduler, a non-daemon thread,
     * sleeps 7.5 minutes before it looks whether it should end: the JVM, and {@code exec:java}, which waits for
     * non-daemon threads, would wait that long. {@code shutdownNow()} on each database client interrupts it (the
     * database it closes again is already closed, which it allows).
     */
    private static void stopDynamoDbLocal(Object server) throws ReflectiveOperationException {
        server.getClass().getMethod("stop").invoke(server);
        Object serverHandler = field(server, "serverHandler");
        Object requestHandler = field(serverHandler, "primaryHandler");
        for (Object database : ((Map<?, ?>) field(requestHandler, "dbRequestHandlers")).values()) {
            database.getClass().getMethod("shutdownNow").invoke(database);
        }
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(owner);
            } catch (NoSuchFieldException e) {
                // declared higher up
            }
        }
        throw new NoSuchFieldException(owner.getClass().getName() + "." + name);
    }
}
