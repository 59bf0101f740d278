package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.QueueSpec;
import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs of one ordering key are listed for admission in the order they were submitted even when the {@code byWaiting}
 * index has not caught up with one of them, as DynamoDB's own indexes may not for a moment (eventually consistent; the
 * emulator updates them with the item, so an SDK interceptor hides entries from the index's answers here).
 */
class KeyOrderTest {

    private static final String PAY = "payments";
    private static final String WAIT = "payments\u001fwaiting";

    private static NewRun waiting(String runId, String key, int priority, Instant at) {
        return new NewRun(runId, "wf", new Payload("1", null), at, at, null, PAY, priority).waitingIn(WAIT, key);
    }

    @Test
    void aKeyWhoseEarlierRunTheIndexDoesNotShowYetIsHeldBackWhileOtherKeysAreListed() {
        onLaggingIndex((world, lag, t) -> {
            world.eventLog().create(waiting("posting-1", "customer-1", 0, t));
            world.eventLog().create(waiting("posting-2", "customer-1", 0, t.plusMillis(1)));
            world.eventLog().create(waiting("posting-3", "customer-1", 0, t.plusMillis(2)));
            world.eventLog().create(waiting("refund-1", "customer-2", 0, t.plusMillis(3)));
            world.eventLog().create(waiting("report-1", null, 0, t.plusMillis(4)));
            lag.hide("posting-1");

            assertThat(world.taskQueue().waiting(WAIT, 10))
                    .as("customer-1's later postings wait until the index shows the first; the others go on")
                    .extracting(WaitingTurn::runId)
                    .containsExactly("refund-1", "report-1");

            lag.hide("posting-2");
            lag.show("posting-1");

            assertThat(world.taskQueue().waiting(WAIT, 10))
                    .as("the first posting is listed, the third waits for the second")
                    .extracting(WaitingTurn::runId)
                    .containsExactly("posting-1", "refund-1", "report-1");

            lag.show("posting-2");

            assertThat(world.taskQueue().waiting(WAIT, 10))
                    .extracting(WaitingTurn::runId)
                    .containsExactly("posting-1", "posting-2", "posting-3", "refund-1", "report-1");
        });
    }

    @Test
    void anEarlierRunAdmittedOrBehindInLeasingOrderHoldsNothingBack() {
        onLaggingIndex((world, lag, t) -> {
            world.eventLog().create(waiting("posting-1", "customer-1", 0, t));
            world.eventLog().create(waiting("posting-2", "customer-1", 0, t.plusMillis(1)));
            world.eventLog().create(waiting("urgent-1", "customer-2", 0, t.plusMillis(2)));
            world.eventLog().create(waiting("urgent-2", "customer-2", 9, t.plusMillis(3)));
            assertThat(world.taskQueue().move(List.of("posting-1"), WAIT, PAY, t))
                    .containsExactly("posting-1");
            // what the index may still show or not show of runs that left the waiting queue or wait behind
            lag.hide("posting-1");
            lag.hide("urgent-1");

            assertThat(world.taskQueue().waiting(WAIT, 10))
                    .as("posting-1 was admitted; urgent-1 comes after urgent-2, which has a higher priority")
                    .extracting(WaitingTurn::runId)
                    .containsExactly("urgent-2", "posting-2");
        });
    }

    @Test
    void aQueueStartsTheRunsOfOneKeyInTheOrderTheyWereSubmittedWhileTheIndexShowsOnlyTheLaterOne() throws Exception {
        List<String> began = new CopyOnWriteArrayList<>();
        Workflow<String, String> post = Workflow.define(
                "keyorder.post",
                String.class,
                (ctx, in) -> ctx.step("post", () -> {
                    began.add(in);
                    return in;
                }));
        try (AwsWorlds worlds = new AwsWorlds()) {
            IndexLag lag = new IndexLag();
            lag.hide("posting-1");
            AwsWorld world = AwsWorld.open(
                    new WorldContext(worlds.config(), InstantSource.system(), worlds.codec.eventCodec()), List.of(lag));
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .register(post)
                    .queue(QueueSpec.named(PAY).withKeyConcurrency(1))
                    .build()) {
                wf.startWorker(WorkerOptions.defaults()
                        .withHandleSigterm(false)
                        .withQueues(Set.of(PAY))
                        .withShutdownGrace(Duration.ofSeconds(2)));
                StartOptions customer1 = StartOptions.queue(PAY).withKey("customer-1");
                RunHandle<String> first = wf.start(post, "posting-1", customer1.withId("posting-1"));
                RunHandle<String> second = wf.start(post, "posting-2", customer1.withId("posting-2"));
                RunHandle<String> other = wf.start(
                        post,
                        "refund-1",
                        StartOptions.queue(PAY).withKey("customer-2").withId("refund-1"));

                assertThat(other.result(Duration.ofSeconds(30))).isEqualTo("refund-1");
                Thread.sleep(1_000); // four admission rounds (one each 250 ms) with posting-1 still unseen
                assertThat(began)
                        .as("posting-2 waits for posting-1, which the index does not show yet; another key went on")
                        .containsExactly("refund-1");

                lag.show("posting-1");

                assertThat(first.result(Duration.ofSeconds(30))).isEqualTo("posting-1");
                assertThat(second.result(Duration.ofSeconds(30))).isEqualTo("posting-2");
                assertThat(began).containsExactly("refund-1", "posting-1", "posting-2");

                try (DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
                    String table = worlds.prefix + "runs";
                    assertThat(item(dynamo, table, link("customer-1"))
                                    .get("last")
                                    .s())
                            .isEqualTo("posting-2");
                    assertThat(world.eventLog().purgeFinished(Instant.now().plusSeconds(1), 10))
                            .isEqualTo(3);
                    assertThat(item(dynamo, table, link("customer-1")))
                            .as("purging the runs of a key leaves nothing of it")
                            .isEmpty();
                    assertThat(item(dynamo, table, link("customer-2"))).isEmpty();
                }
            }
        }
    }

    @Test
    void runsOfOneKeyCreatedAtOnceEachNameTheOneCreatedJustBeforeIt() throws Exception {
        int runs = 24;
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            World world = worlds.open();
            Instant t = worlds.clock.instant();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> created = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    String id = "posting-" + i;
                    created.add(pool.submit(() -> world.eventLog().create(waiting(id, "customer-1", 0, t))));
                }
                for (Future<?> f : created) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            String table = worlds.prefix + "runs";

            // from the key's link back along each run's predecessor: every run once, none left out
            List<String> chain = new ArrayList<>();
            String at = item(dynamo, table, link("customer-1")).get("last").s();
            Set<String> seen = new HashSet<>();
            while (at != null) {
                assertThat(seen.add(at)).as("the chain does not loop at %s", at).isTrue();
                chain.add(at);
                AttributeValue prev = item(dynamo, table, at).get("oPrev");
                at = prev == null ? null : prev.s();
            }
            assertThat(chain).hasSize(runs);
            assertThat(world.taskQueue().waiting(WAIT, 100)).hasSize(runs);
            world.close();
        }
    }

    /** A test given a world of one shard whose waiting-turn index answers through {@code lag}, and the clock's time. */
    @FunctionalInterface
    private interface LaggingTest {
        void run(World world, IndexLag lag, Instant t);
    }

    private static void onLaggingIndex(LaggingTest test) {
        try (AwsWorlds worlds = new AwsWorlds()) {
            IndexLag lag = new IndexLag();
            try (World world = worlds.openSharded(1, lag)) {
                test.run(world, lag, worlds.clock.instant());
            }
        }
    }

    /** The id of the item that names the run last created with {@code key} in the queue. */
    private static String link(String key) {
        return "\u001forder\u001f" + PAY + "\u001f" + key;
    }

    private static Map<String, AttributeValue> item(DynamoDbClient dynamo, String table, String id) {
        return dynamo.getItem(b -> b.tableName(table)
                        .key(Map.of("id", AttributeValue.fromS(id)))
                        .consistentRead(true))
                .item();
    }

    /** Leaves the entries of hidden runs out of the answers to queries of the waiting-turns index. */
    private static final class IndexLag implements ExecutionInterceptor {

        private final Set<String> hidden = ConcurrentHashMap.newKeySet();

        void hide(String runId) {
            hidden.add(runId);
        }

        void show(String runId) {
            hidden.remove(runId);
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (context.request() instanceof QueryRequest query
                    && "byWaiting".equals(query.indexName())
                    && context.response() instanceof QueryResponse page) {
                List<Map<String, AttributeValue>> shown = page.items().stream()
                        .filter(entry -> !hidden.contains(entry.get("id").s()))
                        .toList();
                return page.toBuilder().items(shown).count(shown.size()).build();
            }
            return context.response();
        }
    }
}
