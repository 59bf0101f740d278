package io.worldflow.world.aws.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldConfig;
import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The Lambda entry point, fed real messages received from the world's SQS queue. */
class SqsTurnHandlerTest {

    private final String prefix = Emulators.freshPrefix();
    private final WorldConfig config = Emulators.shared().config(prefix);
    private final ConcurrentHashMap<String, AtomicInteger> counters = new ConcurrentHashMap<>();
    private final CountDownLatch unblock = new CountDownLatch(1);
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final SqsClient sqs = SqsClient.builder()
            .endpointOverride(URI.create(Emulators.shared().sqsEndpoint()))
            .region(Region.US_EAST_1)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
            .build();

    private final Workflow<String, String> quick = Workflow.define(
            "lambda.quick",
            String.class,
            (ctx, in) -> ctx.step("a", () -> "a" + bump("a:" + in)) + ctx.step("b", () -> "b" + bump("b:" + in)));
    private final Workflow<String, String> blocking = Workflow.define(
            "lambda.blocking",
            String.class,
            (ctx, in) -> ctx.step("wait", () -> {
                unblock.await(30, TimeUnit.SECONDS);
                return "released";
            }));

    private final SqsTurnHandler handler = new SqsTurnHandler() {
        @Override
        protected Worldflow.Builder worldflow() {
            return Worldflow.builder()
                    .properties(config.asMap())
                    .register(quick)
                    .register(blocking);
        }

        @Override
        protected Duration visibilityHeartbeat() {
            return Duration.ofMillis(300);
        }
    };

    @AfterEach
    void close() throws Exception {
        unblock.countDown();
        handler.shutdown();
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
        sqs.close();
    }

    private int bump(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    private int count(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicInteger()).get();
    }

    private Worldflow client() {
        Worldflow wf = Worldflow.builder()
                .properties(config.asMap())
                .register(quick)
                .register(blocking)
                .build();
        closing.add(wf);
        return wf;
    }

    /** The queue's URL, once the world has created it (with its first wake-up, in the background). */
    private String queueUrl() {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return sqs.getQueueUrl(b -> b.queueName(prefix.replace('_', '-') + "default"))
                        .queueUrl();
            } catch (software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException e) {
                assertThat(System.nanoTime()).as("the world created its queue").isLessThan(end);
                Thread.onSpinWait();
            }
        }
    }

    /** Receives the wake-ups of these runs from SQS, as Lambda's event source mapping would. */
    private SQSEvent receive(String... runIds) {
        return event(receiveMessages(60, runIds), runIds);
    }

    private Map<String, Message> receiveMessages(int visibilitySeconds, String... runIds) {
        Map<String, Message> byRun = new HashMap<>();
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (byRun.size() < runIds.length && System.nanoTime() < end) {
            for (Message m : sqs.receiveMessage(b -> b.queueUrl(queueUrl())
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(1)
                            .visibilityTimeout(visibilitySeconds)
                            .messageAttributeNames("All"))
                    .messages()) {
                byRun.putIfAbsent(m.body(), m);
            }
        }
        assertThat(byRun).as("wake-ups received").containsKeys(runIds);
        return byRun;
    }

    private SQSEvent event(Map<String, Message> byRun, String... runIds) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (String runId : runIds) {
            records.add(record(byRun.get(runId)));
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }

    private SQSEvent.SQSMessage record(Message m) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(m.messageId());
        r.setReceiptHandle(m.receiptHandle());
        r.setBody(m.body());
        r.setEventSourceArn("arn:aws:sqs:us-east-1:000000000000:" + prefix.replace('_', '-') + "default");
        Map<String, SQSEvent.MessageAttribute> attributes = new HashMap<>();
        m.messageAttributes().forEach((k, v) -> {
            SQSEvent.MessageAttribute a = new SQSEvent.MessageAttribute();
            a.setStringValue(v.stringValue());
            a.setDataType(v.dataType());
            attributes.put(k, a);
        });
        r.setMessageAttributes(attributes);
        return r;
    }

    private static Context context(Duration remaining) {
        long deadline = System.currentTimeMillis() + remaining.toMillis();
        return (Context) Proxy.newProxyInstance(
                Context.class.getClassLoader(),
                new Class<?>[] {Context.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getRemainingTimeInMillis" -> (int) Math.max(0, deadline - System.currentTimeMillis());
                    case "getAwsRequestId" -> "req-1";
                    case "getMemoryLimitInMB" -> 512;
                    default -> null;
                });
    }

    @Test
    void theTurnsOfABatchRunAndADuplicateDeliveryChangesNothing() {
        Worldflow wf = client();
        RunHandle<String> one = wf.start(quick, "one");
        RunHandle<String> two = wf.start(quick, "two");
        SQSEvent event = receive(one.id(), two.id());

        SQSBatchResponse response = handler.handleRequest(event, context(Duration.ofSeconds(30)));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(one.result(Duration.ofSeconds(5))).isEqualTo("a1b1");
        assertThat(two.result(Duration.ofSeconds(5))).isEqualTo("a1b1");
        List<Event> log = wf.events(one.id());

        SQSBatchResponse again = handler.handleRequest(event, context(Duration.ofSeconds(30)));

        assertThat(again.getBatchItemFailures()).isEmpty();
        assertThat(count("a:one") + count("b:one") + count("a:two") + count("b:two"))
                .isEqualTo(4);
        assertThat(wf.events(one.id())).isEqualTo(log);
    }

    @Test
    void aMessageWhoseConsumerDiedIsDeliveredAgainAfterItsVisibilityTimeout() {
        Worldflow wf = client();
        RunHandle<String> run = wf.start(quick, "orphan");
        Message taken = receiveMessages(1, run.id()).get(run.id()); // ... and its consumer dies: no delete

        Map<String, Message> again = receiveMessages(60, run.id()); // SQS delivers it again once visible

        assertThat(again.get(run.id()).messageId()).isEqualTo(taken.messageId());
        SQSBatchResponse response = handler.handleRequest(event(again, run.id()), context(Duration.ofSeconds(30)));
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(run.result(Duration.ofSeconds(5))).isEqualTo("a1b1");
    }

    @Test
    void whileATurnRunsTheHandlerKeepsItsMessageInvisible() {
        Worldflow wf = client();
        RunHandle<String> stuck = wf.start(blocking, "held");
        Message taken = receiveMessages(2, stuck.id()).get(stuck.id()); // visible again after 2 s unless extended

        SQSBatchResponse response = handler.handleRequest(
                event(Map.of(stuck.id(), taken), stuck.id()),
                context(Duration.ofSeconds(6))); // waits about 4 s, beating every 300 ms

        assertThat(response.getBatchItemFailures()).hasSize(1);
        assertThat(sqs.receiveMessage(b ->
                                b.queueUrl(queueUrl()).maxNumberOfMessages(10).waitTimeSeconds(1))
                        .messages())
                .as("the message's visibility was extended past its 2 s")
                .isEmpty();
    }

    @Test
    void aRecordWhoseTurnIsStillRunningWhenTimeRunsOutIsReportedForRedelivery() {
        Worldflow wf = client();
        RunHandle<String> stuck = wf.start(blocking, "stuck");
        RunHandle<String> fine = wf.start(quick, "fine");
        SQSEvent event = receive(stuck.id(), fine.id());
        String stuckMessage = event.getRecords().getFirst().getMessageId();

        SQSBatchResponse response = handler.handleRequest(event, context(Duration.ofSeconds(5)));

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly(stuckMessage);
        assertThat(fine.status()).isEqualTo(RunStatus.COMPLETED);
        unblock.countDown();
        assertThat(stuck.result(Duration.ofSeconds(20))).isEqualTo("released");
    }

    @Test
    void aRecordForATimerBeyondFifteenMinutesIsDelayedAgain() {
        Worldflow wf = client();
        RunHandle<String> run =
                wf.start(quick, "later", io.worldflow.StartOptions.defaults().withDelay(Duration.ofDays(2)));
        SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
        record.setMessageId("m-1");
        record.setBody(run.id());
        Map<String, SQSEvent.MessageAttribute> attributes = new HashMap<>();
        SQSEvent.MessageAttribute dueAt = new SQSEvent.MessageAttribute();
        Instant at = Instant.now().plus(Duration.ofDays(2));
        dueAt.setStringValue(String.valueOf(at.getEpochSecond() * 1_000_000L));
        attributes.put("dueAt", dueAt);
        SQSEvent.MessageAttribute queue = new SQSEvent.MessageAttribute();
        queue.setStringValue("default");
        attributes.put("queue", queue);
        record.setMessageAttributes(attributes);
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(record));
        int delayedBefore = delayed();

        SQSBatchResponse response = handler.handleRequest(event, context(Duration.ofSeconds(10)));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(delayed()).isGreaterThan(delayedBefore);
        assertThat(run.status()).isEqualTo(RunStatus.PENDING);
    }

    private int delayed() {
        return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(queueUrl())
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }
}
