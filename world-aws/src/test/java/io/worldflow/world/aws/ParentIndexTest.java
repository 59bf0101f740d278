package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The sparse index of a parent's child runs, added to a runs table created before it existed. */
class ParentIndexTest {

    @Test
    void aRunsTableWithoutTheParentIndexGainsItOnOpenAndListsARunsChildren() {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            String runs = worlds.prefix + "runs";
            createAsBefore(dynamo, runs);

            World world = worlds.open();

            GlobalSecondaryIndexDescription added =
                    index(dynamo, runs, "byParent").orElseThrow();
            assertThat(added.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
            assertThat(added.keySchema())
                    .extracting(k -> k.attributeName() + " " + k.keyType())
                    .containsExactly("par HASH", "ck RANGE");
            assertThat(added.projection().projectionType()).isEqualTo(ProjectionType.INCLUDE);
            assertThat(added.projection().nonKeyAttributes()).containsExactlyInAnyOrder("wf", "st", "cAt");

            Instant now = worlds.clock.instant();
            Payload input = new Payload("1", null);
            world.eventLog().create(new NewRun("order-1", "wf", input, now, now, null, "default", 0));
            world.eventLog().create(new NewRun("order-1/ship", "ship", input, now, now, null, "default", 0, "order-1"));
            world.eventLog().create(new NewRun("order-2/ship", "ship", input, now, now, null, "default", 0, "order-2"));

            assertThat(world.runQueries()
                            .list(RunQuery.all().withParent("order-1"))
                            .runs())
                    .extracting(RunInfo::runId)
                    .containsExactly("order-1/ship");
            assertThat(world.runQueries().countByStatus(RunQuery.all().withParent("order-1")))
                    .containsEntry(RunStatus.PENDING, 1L);
            assertThat(world.runQueries().get("order-1/ship").orElseThrow().parent())
                    .isEqualTo("order-1");
            assertThat(world.runQueries().get("order-1").orElseThrow().parent()).isNull();

            World again = worlds.open();
            assertThat(again.runQueries()
                            .list(RunQuery.all().withParent("order-2"))
                            .runs())
                    .as("a table that has the index opens as it is")
                    .extracting(RunInfo::runId)
                    .containsExactly("order-2/ship");
        }
    }

    @Test
    void withoutLeaveToChangeTablesAMissingParentIndexStopsTheOpeningNamingIt() {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            String runs = worlds.prefix + "runs";
            createAsBefore(dynamo, runs);
            WorldConfig config = worlds.config().with(AwsWorldProvider.CREATE_RESOURCES, "false");

            Throwable refused = catchThrowable(() -> worlds.open(config));

            assertThat(refused)
                    .isInstanceOf(WorldException.class)
                    .hasMessageContaining("DynamoDB table " + runs)
                    .hasMessageContaining("no index byParent")
                    .hasMessageContaining(AwsWorldProvider.CREATE_RESOURCES + " is false")
                    .hasMessageContaining("add it with UpdateTable (hash key par, sort key ck");
            assertThat(((WorldException) refused).isTransient()).isFalse();
            assertThat(index(dynamo, runs, "byParent"))
                    .as("the table is left as it was")
                    .isEmpty();
        }
    }

    @Test
    void whileTheTableIsBusyWithAnotherIndexTheParentIndexIsAskedForAgain() throws Exception {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient();
                FaultProxy proxy = new FaultProxy(Emulators.shared().dynamoEndpoint())) {
            String runs = worlds.prefix + "runs";
            createAsBefore(dynamo, runs);
            // what DynamoDB answers while it is still setting up another index of the table
            proxy.plan(List.of(
                    new FaultProxy.Fault("DynamoDB_20120810.UpdateTable", 400, "ResourceInUseException"),
                    new FaultProxy.Fault("DynamoDB_20120810.UpdateTable", 400, "LimitExceededException")));

            World world = worlds.open(worlds.config().with(AwsWorldProvider.DYNAMODB_ENDPOINT, proxy.endpoint()));

            assertThat(proxy.injected()).hasSize(2);
            assertThat(index(dynamo, runs, "byParent").orElseThrow().indexStatus())
                    .isEqualTo(IndexStatus.ACTIVE);
            Instant now = worlds.clock.instant();
            world.eventLog().create(new NewRun("a/b", "wf", new Payload("1", null), now, now, null, "default", 0, "a"));
            assertThat(world.runQueries().list(RunQuery.all().withParent("a")).runs())
                    .extracting(RunInfo::runId)
                    .containsExactly("a/b");
        }
    }

    @Test
    void openingWaitsUntilDynamoDbHasBuiltTheIndex() {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            String runs = worlds.prefix + "runs";
            createAsBefore(dynamo, runs);
            StillBuilding building = new StillBuilding(3);

            AwsWorld world = AwsWorld.open(
                    new WorldContext(worlds.config(), worlds.clock, worlds.codec.eventCodec()), List.of(building));

            try {
                // DynamoDB Local too may say CREATING for a moment after the index was asked for
                assertThat(building.seen.getLast())
                        .as("the world opened once told the index is active")
                        .isEqualTo(IndexStatus.ACTIVE);
                int active = building.seen.indexOf(IndexStatus.ACTIVE);
                assertThat(building.seen.subList(0, active))
                        .as("the statuses it was told before")
                        .hasSizeGreaterThanOrEqualTo(3)
                        .containsOnly(IndexStatus.CREATING);
                // DynamoDB Local builds one index at a time: the index of waiting turns is asked for after this one
                assertThat(building.seen.subList(active, building.seen.size()))
                        .as("the statuses it was told after, while it waited for the index of waiting turns")
                        .containsOnly(IndexStatus.ACTIVE);
            } finally {
                world.close();
            }
        }
    }

    /**
     * Reports the index of child runs as still being built the first few times the runs table is described
     * after it was added, as DynamoDB does for minutes while it fills a new index (DynamoDB Local for a moment).
     */
    static final class StillBuilding implements ExecutionInterceptor {
        final List<IndexStatus> seen = new CopyOnWriteArrayList<>();
        private final AtomicInteger left;

        StillBuilding(int times) {
            left = new AtomicInteger(times);
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (!(context.response() instanceof DescribeTableResponse r)
                    || r.table().globalSecondaryIndexes().stream()
                            .noneMatch(i -> i.indexName().equals("byParent"))) {
                return context.response();
            }
            boolean building = left.getAndDecrement() > 0;
            List<GlobalSecondaryIndexDescription> indexes = r.table().globalSecondaryIndexes().stream()
                    .map(i -> building && i.indexName().equals("byParent")
                            ? i.toBuilder()
                                    .indexStatus(IndexStatus.CREATING)
                                    .backfilling(true)
                                    .build()
                            : i)
                    .toList();
            indexes.stream().filter(i -> i.indexName().equals("byParent")).forEach(i -> seen.add(i.indexStatus()));
            return r.toBuilder()
                    .table(r.table().toBuilder().globalSecondaryIndexes(indexes).build())
                    .build();
        }
    }

    /** The runs table as the versions before child runs were listed by parent created it. */
    private static void createAsBefore(DynamoDbClient dynamo, String table) {
        dynamo.createTable(b -> b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Arrays.stream(new String[] {"id", "all", "ck", "st", "wf", "tq", "tk", "hk"})
                        .map(a -> AttributeDefinition.builder()
                                .attributeName(a)
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .toList())
                .keySchema(key("id", KeyType.HASH))
                .globalSecondaryIndexes(
                        index("byCreated", "all", "ck", "wf", "st", "cAt"),
                        index("byStatus", "st", "ck", "wf", "st", "cAt"),
                        index("byWorkflow", "wf", "ck", "wf", "st", "cAt"),
                        index("byHeld", "hk", "ck", "wf", "st", "cAt"),
                        index("byDue", "tq", "tk", "q", "prio", "tAvail", "tLease", "tExp", "tReq", "tDel", "tVer")));
    }

    private static GlobalSecondaryIndex index(String name, String hash, String range, String... projected) {
        return GlobalSecondaryIndex.builder()
                .indexName(name)
                .keySchema(key(hash, KeyType.HASH), key(range, KeyType.RANGE))
                .projection(Projection.builder()
                        .projectionType(ProjectionType.INCLUDE)
                        .nonKeyAttributes(projected)
                        .build())
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static Optional<GlobalSecondaryIndexDescription> index(DynamoDbClient dynamo, String table, String name) {
        return dynamo.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals(name))
                .findFirst();
    }
}
