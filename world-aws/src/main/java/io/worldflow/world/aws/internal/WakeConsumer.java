package io.worldflow.world.aws.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Pushes wake-up messages from SQS to the world's {@link io.worldflow.spi.DueNotifier}, so that an idle worker
 * in this process reacts to turns made due by other processes at once. Started by the first subscriber:
 * one long-polling virtual thread per queue of this world's prefix (the list is refreshed every minute).
 * A message is deleted once told; one whose due time is more than 15 minutes ahead is sent again, delayed.
 */
final class WakeConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WakeConsumer.class);

    private final WakeQueues wakes;
    private final SqsClient sqs;
    private final String prefix;
    private final Duration poll;
    private final InstantSource clock;
    private final Consumer<Instant> due;
    private final Set<String> polled = ConcurrentHashMap.newKeySet();
    private volatile boolean started;
    private volatile boolean closed;
    private Thread lister;

    WakeConsumer(WakeQueues wakes, String prefix, Duration poll, InstantSource clock, Consumer<Instant> due) {
        this.wakes = wakes;
        this.sqs = wakes.client();
        this.prefix = prefix;
        this.poll = poll;
        this.clock = clock;
        this.due = due;
    }

    synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        lister = Thread.ofVirtual().name("worldflow-aws-wake-lister").start(this::listLoop);
    }

    private void listLoop() {
        while (!closed) {
            try {
                List<String> urls = sqs.listQueues(b -> b.queueNamePrefix(prefix.isEmpty() ? null : prefix))
                        .queueUrls();
                for (String url : urls) {
                    if (polled.add(url)) {
                        Thread.ofVirtual().name("worldflow-aws-wake " + url).start(() -> pollLoop(url));
                    }
                }
            } catch (RuntimeException e) {
                if (!closed) {
                    log.debug("listing wake-up queues failed: {}", e.toString());
                }
            }
            try {
                Thread.sleep(polled.isEmpty() ? 1_000 : 60_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void pollLoop(String url) {
        int failures = 0;
        while (!closed) {
            try {
                List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(url)
                                .maxNumberOfMessages(10)
                                .waitTimeSeconds((int) poll.toSeconds())
                                .visibilityTimeout(30)
                                .messageAttributeNames("All"))
                        .messages();
                failures = 0;
                for (Message m : messages) {
                    handle(url, m);
                }
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                failures++;
                log.debug("receiving wake-ups from {} failed: {}", url, e.toString());
                try {
                    Thread.sleep(Math.min(10_000, 100L << Math.min(failures, 7)));
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private void handle(String url, Message m) {
        Instant at = dueAt(m);
        due.accept(at);
        if (Duration.between(clock.instant(), at).toSeconds() > WakeQueues.MAX_DELAY_SECONDS) {
            MessageAttributeValue queue = m.messageAttributes().get(WakeQueues.QUEUE);
            if (queue != null) {
                wakes.sendNow(queue.stringValue(), m.body(), at); // re-delayed: the 15-minute limit
            }
        }
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
    }

    static Instant dueAt(Message m) {
        MessageAttributeValue v = m.messageAttributes().get(WakeQueues.DUE_AT);
        if (v == null) {
            return Instant.EPOCH;
        }
        try {
            return Attrs.instant(Long.parseLong(v.stringValue()));
        } catch (NumberFormatException e) {
            return Instant.EPOCH;
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread t = lister;
        if (t != null) {
            t.interrupt();
        }
    }
}
