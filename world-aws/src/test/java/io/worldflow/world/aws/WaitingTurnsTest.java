package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.WorldException;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Turns that wait in a queue to be admitted, listed from the {@code byWaiting} index: in leasing order across more than
 * one page of it, never a run without those submitted before it when shards are read at different moments, and from
 * a runs table made before the index existed.
 */
class WaitingTurnsTest {

    private static final String PAY = "payments";
    private static final String WAIT = "payments\u001fwaiting";
    private static final Duration LEASE = Duration.ofSeconds(30);

    /** Leasing order: highest priority first, then earliest due, then run id. */
    private static final Comparator<WaitingTurn> LEASING_ORDER = Comparator.comparingInt(WaitingTurn::priority)
            .reversed()
            .thenComparing(WaitingTurn::availableAt)
            .thenComparing(WaitingTurn::runId);

    private static NewRun waiting(String runId, String key, int priority, Instant createdAt, Instant due) {
        return new NewRun(runId, "wf", new Payload("1", null), createdAt, due, null, PAY, priority)
                .waitingIn(WAIT, key);
    }

    @Test
    void waitingListsTurnsInLeasingOrderAcrossIndexPages() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            World world = worlds.open();
            TaskQueue tasks = world.taskQueue();
            Instant t = worlds.clock.instant();
            int[] priorities = {0, Integer.MIN_VALUE, 7, -1, Integer.MAX_VALUE, 1};
            List<WaitingTurn> expected = new ArrayList<>();
            for (int i = 0; i < 250; i++) {
                int priority = priorities[i % priorities.length];
                Instant due = t.plusSeconds((i * 7L) % 13); // neither in creation nor in id order
                String key = i % 5 == 0 ? null : "customer-" + i % 4;
                world.eventLog().create(waiting("order-" + i, key, priority, t, due));
                expected.add(new WaitingTurn("order-" + i, key, priority, due));
            }
            // one admitted, one asked for earlier than it was due: the index follows both
            assertThat(tasks.move(List.of("order-3"), WAIT, PAY, t)).containsExactly("order-3");
            expected.removeIf(w -> w.runId().equals("order-3"));
            tasks.enqueue("order-8", t.minusSeconds(1));
            expected.replaceAll(w -> w.runId().equals("order-8")
                    ? new WaitingTurn(w.runId(), w.key(), w.priority(), t.minusSeconds(1))
                    : w);
            expected.sort(LEASING_ORDER);

            assertThat(tasks.waiting(WAIT, 1000)).containsExactlyElementsOf(expected);
            assertThat(tasks.waiting(WAIT, 150)).containsExactlyElementsOf(expected.subList(0, 150));
            assertThat(tasks.waiting(WAIT, 1)).containsExactly(expected.getFirst());
            assertThat(tasks.waiting(PAY, 10))
                    .as("a turn in its run's own queue waits for nothing: it is not in the index")
                    .isEmpty();

            List<Lease> leased = tasks.lease("worker-a", Set.of(PAY), 10, LEASE);

            assertThat(leased).extracting(Lease::runId).containsExactly("order-3");
        }
    }

    @Test
    void aTurnWaitingToBeAdmittedWakesNoWorkerAndOneMovedToItsQueueDoes() throws Exception {
        try (AwsWorlds worlds = new AwsWorlds()) {
            Wakes wakes = new Wakes();
            World world = worlds.openSharded(1, wakes);
            try {
                Instant t = worlds.clock.instant();
                world.eventLog().create(waiting("order-1", null, 0, t, t));
                world.eventLog().create(waiting("order-2", null, 0, t, t));
                world.signals().send("order-2", "go", new Payload("1", null));
                world.taskQueue().move(List.of("order-1"), WAIT, PAY, t);

                long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (!wakes.queues.contains(PAY) && System.nanoTime() < until) {
                    Thread.sleep(20);
                }
                Thread.sleep(200); // wake-ups are sent in the background: any other would have been by now
                assertThat(wakes.queues)
                        .as("the SQS queues woken: the admitted run's, not the one no worker leases from")
                        .containsExactly(PAY);
            } finally {
                world.close();
            }
        }
    }

    /** The Worldflow queue of each wake-up sent to SQS. */
    private static final class Wakes implements ExecutionInterceptor {

        final List<String> queues = new CopyOnWriteArrayList<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof SendMessageRequest send) {
                queues.add(send.messageAttributes().get("queue").stringValue());
            }
        }
    }

    @Test
    void aRunSubmittedAfterAnotherIsNotListedWithoutItWhenTheirShardsAreReadAtDifferentMoments() throws Exception {
        try (AwsWorlds worlds = new AwsWorlds()) {
            String[] ids = idsInTwoShards(SHARDS);
            String earlier = ids[0];
            String later = ids[1];
            ShardReads reads = new ShardReads(shardKey(WAIT, earlier), shardKey(WAIT, later));
            World world = worlds.openSharded(SHARDS, reads);
            try {
                Instant t = worlds.clock.instant();
                reads.arm();
                CompletableFuture<List<WaitingTurn>> listing =
                        CompletableFuture.supplyAsync(() -> world.taskQueue().waiting(WAIT, 10));
                assertThat(reads.earlierShardRead.await(20, TimeUnit.SECONDS))
                        .as("the earlier run's shard was read")
                        .isTrue();
                assertThat(reads.laterShardHeld.await(20, TimeUnit.SECONDS))
                        .as("the later run's shard is about to be read")
                        .isTrue();
                // one posting of a customer, then the next: each submitted once the one before was stored
                world.eventLog().create(waiting(earlier, "customer-1", 0, t, t));
                world.eventLog().create(waiting(later, "customer-1", 0, t, t));
                reads.release();

                assertThat(listing.get(20, TimeUnit.SECONDS))
                        .as("the later run, read in its shard after both were stored, is not listed without the"
                                + " earlier one, which its shard was read too early to show")
                        .isEmpty();
                assertThat(world.taskQueue().waiting(WAIT, 10))
                        .extracting(WaitingTurn::runId)
                        .containsExactly(earlier, later);
            } finally {
                reads.release();
                world.close();
            }
        }
    }

    private static final int SHARDS = 16;

    /** Two run ids in leasing order (same priority and due time, so by id) whose turns are in different shards. */
    private static String[] idsInTwoShards(int shards) {
        String first = "posting-1";
        for (int i = 2; ; i++) {
            String second = "posting-" + i;
            if (shard(first, shards) != shard(second, shards) && first.compareTo(second) < 0) {
                return new String[] {first, second};
            }
        }
    }

    /** The shard of an id as the world-aws README gives it: CRC-32 of its UTF-8 bytes, modulo the shard count. */
    private static int shard(String id, int shards) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    /** The index key a queue's entry for run {@code id} is written under: the queue, U+001E and the shard, but 0. */
    private static String shardKey(String queue, String id) {
        int shard = shard(id, SHARDS);
        return shard == 0 ? queue : queue + "\u001E" + shard;
    }

    /**
     * Holds the first query of the later run's shard of the waiting-turns index until released, and tells when the
     * earlier run's shard has been read: the two shards of one listing read at moments far apart.
     */
    private static final class ShardReads implements ExecutionInterceptor {

        private final String earlierKey;
        private final String laterKey;
        private final AtomicBoolean armed = new AtomicBoolean();
        private final AtomicBoolean holding = new AtomicBoolean();
        final CountDownLatch earlierShardRead = new CountDownLatch(1);
        final CountDownLatch laterShardHeld = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        ShardReads(String earlierKey, String laterKey) {
            this.earlierKey = earlierKey;
            this.laterKey = laterKey;
        }

        void arm() {
            armed.set(true);
        }

        void release() {
            released.countDown();
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (armed.get() && laterKey.equals(waitingShard(context.request())) && holding.compareAndSet(false, true)) {
                laterShardHeld.countDown();
                try {
                    released.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (armed.get() && earlierKey.equals(waitingShard(context.request()))) {
                earlierShardRead.countDown();
            }
        }

        /** The shard key a query of the waiting-turns index reads, or null for any other request. */
        private static String waitingShard(SdkRequest request) {
            if (request instanceof QueryRequest query && "byWaiting".equals(query.indexName())) {
                AttributeValue key = query.expressionAttributeValues().get(":q");
                return key == null ? null : key.s();
            }
            return null;
        }
    }

    @Test
    void aRunsTableWithoutTheWaitingIndexGainsItOnOpenAndListsTheTurnsWaitingThere() throws InterruptedException {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            World first = worlds.open();
            Instant t = worlds.clock.instant();
            first.eventLog().create(waiting("order-1", "k", 0, t, t));
            first.eventLog().create(waiting("order-2", null, 5, t, t.plusSeconds(1)));
            first.close();
            String runs = worlds.prefix + "runs";
            dropWaitingIndex(dynamo, runs);

            World again = worlds.open();

            assertThat(index(dynamo, runs).orElseThrow().indexStatus()).isEqualTo(IndexStatus.ACTIVE);
            assertThat(again.taskQueue().waiting(WAIT, 10))
                    .containsExactly(
                            new WaitingTurn("order-2", null, 5, t.plusSeconds(1)),
                            new WaitingTurn("order-1", "k", 0, t));
        }
    }

    @Test
    void withoutLeaveToChangeTablesAMissingWaitingIndexStopsTheOpeningNamingIt() throws InterruptedException {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            worlds.open().close();
            String runs = worlds.prefix + "runs";
            dropWaitingIndex(dynamo, runs);

            Throwable refused =
                    catchThrowable(() -> worlds.open(worlds.config().with(AwsWorldProvider.CREATE_RESOURCES, "false")));

            assertThat(refused)
                    .isInstanceOf(WorldException.class)
                    .hasMessageContaining("DynamoDB table " + runs)
                    .hasMessageContaining("no index byWaiting")
                    .hasMessageContaining("add it with UpdateTable (hash key tq, sort key tw, both strings; keys only");
            assertThat(((WorldException) refused).isTransient()).isFalse();
            assertThat(index(dynamo, runs)).as("the table is left as it was").isEmpty();
        }
    }

    /** Makes the runs table look as an earlier version made it, without the index of waiting turns. */
    private static void dropWaitingIndex(DynamoDbClient dynamo, String runs) throws InterruptedException {
        dynamo.updateTable(b -> b.tableName(runs)
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                        .delete(DeleteGlobalSecondaryIndexAction.builder()
                                .indexName("byWaiting")
                                .build())
                        .build()));
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (index(dynamo, runs).isPresent() && System.nanoTime() < end) {
            Thread.sleep(50); // DynamoDB drops an index in the background
        }
        assertThat(index(dynamo, runs))
                .as("a table as an older version made it")
                .isEmpty();
    }

    private static Optional<GlobalSecondaryIndexDescription> index(DynamoDbClient dynamo, String table) {
        return dynamo.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals("byWaiting"))
                .findFirst();
    }
}
