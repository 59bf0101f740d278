package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.WorldException;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The search table, added to tables made before search attributes existed. */
class SearchTableTest {

    private static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");

    /** Opens a world, creates two runs without attributes, closes it, and drops the search table: tables as before. */
    private static void tablesAsBefore(AwsWorlds worlds, DynamoDbClient dynamo) {
        World first = worlds.open();
        for (String id : List.of("old-1", "old-2")) {
            Instant now = worlds.clock.instant();
            first.eventLog().create(new NewRun(id, "wf", new Payload("1", null), now, now, null, "default", 0));
            worlds.clock.advance(Duration.ofMillis(1));
        }
        first.close();
        String search = worlds.prefix + "search";
        dynamo.deleteTable(b -> b.tableName(search));
        dynamo.waiter().waitUntilTableNotExists(b -> b.tableName(search));
    }

    private static List<String> ids(World world, RunQuery query) {
        return world.runQueries().list(query).runs().stream()
                .map(RunInfo::runId)
                .toList();
    }

    @Test
    void tablesMadeBeforeSearchAttributesGainTheSearchTableOnOpenAndTheirRunsStillList() {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            tablesAsBefore(worlds, dynamo);
            String search = worlds.prefix + "search";

            World world = worlds.open();

            GlobalSecondaryIndexDescription index = index(dynamo, search).orElseThrow();
            assertThat(index.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
            assertThat(index.keySchema())
                    .extracting(k -> k.attributeName() + " " + k.keyType())
                    .containsExactly("av HASH", "ck RANGE");
            assertThat(index.projection().projectionType()).isEqualTo(ProjectionType.KEYS_ONLY);
            assertThat(ids(world, RunQuery.all())).containsExactly("old-2", "old-1");
            assertThat(ids(world, RunQuery.all().withQueue("default"))).containsExactly("old-2", "old-1");
            assertThat(world.runQueries().get("old-1").orElseThrow().searchAttributes())
                    .isEqualTo(SearchAttributes.empty());
            assertThat(ids(world, RunQuery.all().withAttribute(CUSTOMER, "42"))).isEmpty();

            // a run made before gains attributes with its next append, and is found by them
            Instant now = worlds.clock.instant();
            Append update = new Append(
                    "old-1",
                    1,
                    List.of(new SearchAttributesUpdated("old-1", 1, now, "search#1", List.of("customer=s:42"))),
                    RunStatus.RUNNING);
            assertThat(world.eventLog().append(List.of(update)).getFirst().appended())
                    .isTrue();
            world.eventLog()
                    .create(new NewRun("new-1", "wf", new Payload("1", null), now, now, null, "default", 0)
                            .withSearchAttributes(SearchAttributes.of(CUSTOMER, "42")));

            assertThat(ids(world, RunQuery.all().withAttribute(CUSTOMER, "42"))).containsExactly("new-1", "old-1");
            assertThat(world.runQueries().get("old-1").orElseThrow().searchAttributes())
                    .isEqualTo(SearchAttributes.of(CUSTOMER, "42"));
            assertThat(ids(world, RunQuery.all())).containsExactly("new-1", "old-2", "old-1");
        }
    }

    @Test
    void withoutLeaveToCreateTablesAMissingSearchTableStopsTheOpeningNamingIt() {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            tablesAsBefore(worlds, dynamo);

            Throwable refused =
                    catchThrowable(() -> worlds.open(worlds.config().with(AwsWorldProvider.CREATE_RESOURCES, "false")));

            assertThat(refused)
                    .isInstanceOf(WorldException.class)
                    .hasMessageContaining("DynamoDB table " + worlds.prefix + "search does not exist")
                    .hasMessageContaining(AwsWorldProvider.CREATE_RESOURCES + " is false");
            assertThat(dynamo.listTables().tableNames()).doesNotContain(worlds.prefix + "search");
        }
    }

    @Test
    void aSearchTableWithoutItsIndexGainsItOnOpen() throws InterruptedException {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            worlds.open().close();
            String search = worlds.prefix + "search";
            dynamo.updateTable(b -> b.tableName(search)
                    .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                            .delete(DeleteGlobalSecondaryIndexAction.builder()
                                    .indexName("byValue")
                                    .build())
                            .build()));
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (index(dynamo, search).isPresent() && System.nanoTime() < end) {
                Thread.sleep(50); // DynamoDB drops an index in the background
            }
            assertThat(index(dynamo, search))
                    .as("a table made by hand without it")
                    .isEmpty();

            World world = worlds.open();

            assertThat(index(dynamo, search).orElseThrow().indexStatus()).isEqualTo(IndexStatus.ACTIVE);
            Instant now = worlds.clock.instant();
            world.eventLog()
                    .create(new NewRun("r", "wf", new Payload("1", null), now, now, null, "default", 0)
                            .withSearchAttributes(SearchAttributes.of(CUSTOMER, "42")));
            assertThat(ids(world, RunQuery.all().withAttribute(CUSTOMER, "42"))).containsExactly("r");
        }
    }

    private static Optional<GlobalSecondaryIndexDescription> index(DynamoDbClient dynamo, String table) {
        return dynamo.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals("byValue"))
                .findFirst();
    }
}
