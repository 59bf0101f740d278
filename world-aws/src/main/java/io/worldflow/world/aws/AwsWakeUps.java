package io.worldflow.world.aws;

import io.worldflow.spi.World;
import io.worldflow.world.aws.internal.AwsWorld;
import io.worldflow.world.aws.internal.WakeQueues;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The wake-up messages of an open {@code aws} world, for a consumer that receives them itself instead of the
 * world's workers (an AWS Lambda function with an SQS trigger). A message's body is a run id; its attributes are
 * {@value #DUE_AT} and {@value #QUEUE}. A message is a hint: the turn it announces is in DynamoDB, and
 * {@link #hasTurnDueBy} says whether it is still there.
 */
public final class AwsWakeUps {

    /** Message attribute: the instant the run's turn is due, in epoch microseconds. */
    public static final String DUE_AT = WakeQueues.DUE_AT;
    /** Message attribute: the Worldflow queue the run's turn is in. */
    public static final String QUEUE = WakeQueues.QUEUE;
    /** The longest delay SQS gives a message: a message due later is sent again, delayed anew. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(WakeQueues.MAX_DELAY_SECONDS);

    private final AwsWorld world;
    private final Map<String, String> queueUrls = new ConcurrentHashMap<>();

    private AwsWakeUps(AwsWorld world) {
        this.world = world;
    }

    /** The wake-ups of this world, or empty when it is not an {@code aws} world. */
    public static Optional<AwsWakeUps> of(World world) {
        return world instanceof AwsWorld aws ? Optional.of(new AwsWakeUps(aws)) : Optional.empty();
    }

    /** Now, by the world's clock. */
    public Instant now() {
        return world.clock().instant();
    }

    /**
     * Whether the run still has a turn available at or before {@code at} (pending, or leased and not yet ended):
     * a wake-up due then still has work behind it.
     */
    public boolean hasTurnDueBy(String runId, Instant at) {
        return world.hasTurnDueBy(runId, at);
    }

    /**
     * Sends the run's wake-up again to the SQS queue of a Worldflow queue, delayed until {@code dueAt} or by
     * {@link #MAX_DELAY}, whichever is sooner. A failure is logged, not thrown: the turn is in DynamoDB anyway.
     */
    public void sendAgain(String queue, String runId, Instant dueAt) {
        world.wakeQueues().sendNow(queue, runId, dueAt);
    }

    /**
     * Hides a received message for {@code timeout} from now ({@code ChangeMessageVisibility}); the queue is named
     * as SQS names it ({@code <queue-prefix><queue>}). Throws the SDK's exception when SQS refuses.
     */
    public void extendVisibility(String sqsQueueName, String receiptHandle, Duration timeout) {
        SqsClient sqs = world.wakeQueues().client();
        String url = queueUrls.computeIfAbsent(
                sqsQueueName, n -> sqs.getQueueUrl(b -> b.queueName(n)).queueUrl());
        sqs.changeMessageVisibility(
                b -> b.queueUrl(url).receiptHandle(receiptHandle).visibilityTimeout((int) timeout.toSeconds()));
    }
}
