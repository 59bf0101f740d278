package io.worldflow.world.aws.internal;

import io.worldflow.WorldException;
import io.worldflow.world.aws.AwsWorldProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The SQS side: one standard queue per Worldflow queue, carrying wake-up messages (body: the run id;
 * attributes {@value #DUE_AT} in epoch microseconds and {@value #QUEUE}). A message says "this run's turn is
 * due at this instant"; it is a hint, never the truth: the turn itself is in DynamoDB, so a lost, late or
 * duplicated message changes nothing but latency. A message is delayed until its due time (at most the
 * SQS limit of 15 minutes; a consumer that receives it early sends it again, delayed anew).
 */
public final class WakeQueues implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WakeQueues.class);
    public static final String DUE_AT = "dueAt";
    public static final String QUEUE = "queue";
    public static final int MAX_DELAY_SECONDS = 900;
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-]+");

    private final SqsClient sqs;
    private final AwsSettings settings;
    private final InstantSource clock;
    private final Map<String, String> urls = new ConcurrentHashMap<>();
    private final ExecutorService sender = Executors.newVirtualThreadPerTaskExecutor();

    public WakeQueues(SqsClient sqs, AwsSettings settings, InstantSource clock) {
        this.sqs = sqs;
        this.settings = settings;
        this.clock = clock;
    }

    public SqsClient client() {
        return sqs;
    }

    /** Checks that SQS answers, failing naming the endpoint's key. */
    void check() {
        try {
            sqs.listQueues(b -> b.queueNamePrefix(settings.queuePrefix().isEmpty() ? "x" : settings.queuePrefix())
                    .maxResults(1));
        } catch (SdkException e) {
            throw new WorldException(
                    "AWS world: cannot reach SQS at the endpoint set by " + settings.sqsEndpointKey()
                            + " (" + (settings.sqsEndpoint() == null ? settings.region() : settings.sqsEndpoint())
                            + "): "
                            + AwsFailures.describe(e),
                    AwsFailures.isTransient(e),
                    e);
        }
    }

    /** The SQS queue name of a Worldflow queue: the prefix, then the name (made safe and unique when needed). */
    public String queueName(String queue) {
        String name = queue;
        if (!SAFE.matcher(queue).matches() || queue.length() > 60) {
            String cleaned = queue.replaceAll("[^A-Za-z0-9_-]", "_");
            name = cleaned.substring(0, Math.min(cleaned.length(), 40)) + "-" + hash(queue);
        }
        return settings.queuePrefix() + name;
    }

    /** The queue's URL, creating the queue when missing and allowed. */
    public String url(String queue) {
        return urls.computeIfAbsent(queue, this::resolve);
    }

    private String resolve(String queue) {
        String name = queueName(queue);
        try {
            return sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
        } catch (QueueDoesNotExistException missing) {
            if (!settings.createResources()) {
                throw new WorldException(
                        "AWS world: SQS queue " + name + " does not exist and " + AwsWorldProvider.CREATE_RESOURCES
                                + " is false",
                        false,
                        missing);
            }
            return AwsFailures.call(
                    "creating SQS queue " + name,
                    () -> sqs.createQueue(b -> b.queueName(name)
                                    .attributes(Map.of(
                                            QueueAttributeName.VISIBILITY_TIMEOUT,
                                            "60",
                                            QueueAttributeName.MESSAGE_RETENTION_PERIOD,
                                            "1209600")))
                            .queueUrl());
        } catch (SdkException e) {
            throw AwsFailures.translate("finding SQS queue " + name, e);
        }
    }

    /** Sends a wake-up for the run, in the background: a failure only costs latency (see the class comment). */
    void send(String queue, String runId, Instant dueAt) {
        try {
            sender.execute(() -> sendNow(queue, runId, dueAt));
        } catch (RejectedExecutionException closed) {
            // closing: the turn is in DynamoDB anyway
        }
    }

    /** Sends a wake-up for the run now, delayed until its due time (at most 15 minutes). */
    public void sendNow(String queue, String runId, Instant dueAt) {
        try {
            long ahead = Duration.between(clock.instant(), dueAt).toMillis();
            int delay = (int) Math.max(0, Math.min(MAX_DELAY_SECONDS, (ahead + 999) / 1000));
            String url = url(queue);
            sqs.sendMessage(b -> b.queueUrl(url)
                    .messageBody(runId)
                    .delaySeconds(delay)
                    .messageAttributes(Map.of(
                            DUE_AT,
                                    MessageAttributeValue.builder()
                                            .dataType("Number")
                                            .stringValue(Long.toString(Attrs.micros(dueAt)))
                                            .build(),
                            QUEUE,
                                    MessageAttributeValue.builder()
                                            .dataType("String")
                                            .stringValue(queue)
                                            .build())));
        } catch (RuntimeException e) {
            log.warn(
                    "could not send the wake-up of run {} to queue {} (workers still find it in DynamoDB): {}",
                    runId,
                    queue,
                    e.toString());
        }
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        sender.shutdown();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
