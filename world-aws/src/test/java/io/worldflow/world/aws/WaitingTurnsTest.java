package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.WorldException;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Turns that wait in a queue to be admitted, listed from the {@code byWaiting} index: in leasing order across more than
 * one page of it, and from a runs table made before the index existed.
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
