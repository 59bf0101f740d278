package io.worldflow.world.aws;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The sparse index of held runs, added to a runs table created before it existed. */
class HeldIndexTest {

    @Test
    void aRunsTableWithoutTheHeldIndexGainsItOnOpenAndListsItsHeldRuns() throws InterruptedException {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            World first = worlds.open();
            Instant now = worlds.clock.instant();
            for (String id : List.of("held", "free")) {
                first.eventLog().create(new NewRun(id, "wf", new Payload("1", null), now, now, null, "default", 0));
            }
            first.eventLog().hold("held", ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "x"));
            first.close();
            String runs = worlds.prefix + "runs";
            dynamo.updateTable(b -> b.tableName(runs)
                    .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                            .delete(DeleteGlobalSecondaryIndexAction.builder()
                                    .indexName("byHeld")
                                    .build())
                            .build()));
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (indexes(dynamo, runs).contains("byHeld") && System.nanoTime() < end) {
                Thread.sleep(50); // DynamoDB drops an index in the background
            }
            assertThat(indexes(dynamo, runs))
                    .as("a table as an older version made it")
                    .doesNotContain("byHeld");

            World again = worlds.open();

            assertThat(indexes(dynamo, runs)).contains("byHeld");
            // the world asks for the index and goes on; DynamoDB fills it from the table in the background
            assertThat(listedOnceFilled(again, true)).containsExactly("held");
            assertThat(listedOnceFilled(again, false)).containsExactly("free");
            assertThat(again.runQueries().get("held").orElseThrow().heldSince()).isEqualTo(now);
        }
    }

    /**
     * The ids of the runs listed as held (or not), read again until the new index shows a held run or 20 s pass: the
     * last list read either way.
     */
    private static List<String> listedOnceFilled(World world, boolean held) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            List<String> ids = world.runQueries().list(RunQuery.all().withHeld(held)).runs().stream()
                    .map(RunInfo::runId)
                    .toList();
            boolean filled = held ? !ids.isEmpty() : !ids.contains("held");
            if (filled || System.nanoTime() > end) {
                return ids;
            }
            Thread.sleep(50);
        }
    }

    private static List<String> indexes(DynamoDbClient dynamo, String table) {
        return dynamo.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
                .map(GlobalSecondaryIndexDescription::indexName)
                .toList();
    }
}
