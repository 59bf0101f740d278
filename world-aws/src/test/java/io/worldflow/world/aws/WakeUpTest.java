package io.worldflow.world.aws;

import io.worldflow.spi.NewRun;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Wake-ups through SQS: what one process makes due reaches another process's idle worker. */
class WakeUpTest {

    private final AwsWorlds worlds = new AwsWorlds();
    private final SqsClient sqs = SqsClient.builder()
            .endpointOverride(URI.create(Emulators.shared().sqsEndpoint()))
            .region(Region.US_EAST_1)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
            .build();

    @AfterEach
    void close() {
        worlds.close();
        sqs.close();
    }

    private String queueUrl() {
        String name = worlds.prefix.replace('_', '-') + "default";
        return sqs.createQueue(b -> b.queueName(name)).queueUrl(); // idempotent: the world's own queue
    }

    @Test
    void aRunCreatedByOneProcessWakesTheOtherProcesssSubscriber() throws Exception {
        World creator = worlds.open();
        World idle = worlds.open();
        queueUrl();
        CompletableFuture<Instant> told = new CompletableFuture<>();
        TaskQueue.Subscription s = idle.taskQueue().subscribe(told::complete);
        try {
            creator.eventLog()
                    .create(new NewRun(
                            "order-1",
                            "wake.v1",
                            worlds.codec.encode("x", "input"),
                            worlds.clock.instant(),
                            worlds.clock.instant(),
                            null,
                            "default",
                            0));

            assertThat(told.get(20, TimeUnit.SECONDS)).isEqualTo(worlds.clock.instant());
        } finally {
            s.close();
        }
    }

    @Test
    void aWakeUpForATurnDaysAheadIsToldAndDelayedAgain() throws Exception {
        World idle = worlds.open();
        String url = queueUrl();
        Instant dueAt = worlds.clock.instant().plus(Duration.ofDays(3));
        long micros = dueAt.getEpochSecond() * 1_000_000L + dueAt.getNano() / 1_000;
        CompletableFuture<Instant> told = new CompletableFuture<>();
        TaskQueue.Subscription s = idle.taskQueue().subscribe(told::complete);
        try {
            sqs.sendMessage(b -> b.queueUrl(url)
                    .messageBody("order-9")
                    .messageAttributes(Map.of(
                            "dueAt",
                                    MessageAttributeValue.builder()
                                            .dataType("Number")
                                            .stringValue(Long.toString(micros))
                                            .build(),
                            "queue",
                                    MessageAttributeValue.builder()
                                            .dataType("String")
                                            .stringValue("default")
                                            .build())));

            assertThat(told.get(20, TimeUnit.SECONDS)).isEqualTo(dueAt);
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (delayed(url) == 0) {
                assertThat(System.nanoTime())
                        .as("the wake-up was sent again, delayed")
                        .isLessThan(end);
                Thread.onSpinWait();
            }
            assertThat(delayed(url)).isEqualTo(1);
        } finally {
            s.close();
        }
    }

    private int delayed(String url) {
        return Integer.parseInt(sqs.getQueueAttributes(
                        b -> b.queueUrl(url).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }
}
