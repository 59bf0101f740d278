package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.ArrayList;
import java.util.List;

/**
 * The seven tables and their indexes, by name and shape ({@link TableSetup} makes them exist when a world opens).
 * The partition keys many items share ({@code all}, {@code st}, {@code wf}, {@code tq}, {@code hk}, {@code av}) hold
 * one of several shard keys each ({@link Shards}).
 *
 * <ul>
 *   <li>{@code <prefix>runs}: key {@code id}; one item per run (projection, turn state, signal counter).
 *       Indexes {@value #BY_CREATED} ({@code all}, {@code ck}), {@value #BY_STATUS} ({@code st}, {@code ck}),
 *       {@value #BY_WORKFLOW} ({@code wf}, {@code ck}) for listing, and {@value #BY_DUE} ({@code tq}, {@code tk})
 *       for leasing, a sparse index of the runs that have a turn, {@value #BY_HELD} ({@code hk}, {@code ck}), a
 *       sparse index of the held runs, {@value #BY_PARENT} ({@code par}, {@code ck}), a sparse index of the
 *       child runs by their parent, and {@value #BY_WAITING} ({@code tq}, {@code tw}), a sparse index of the
 *       pending turns no one holds, in leasing order, of keys only.</li>
 *   <li>{@code <prefix>events}: key ({@code run}, {@code k}); the log, in pages (see {@link EventPages}).</li>
 *   <li>{@code <prefix>signals}: key ({@code run}, {@code sid}); signals not yet cleaned up after consumption.</li>
 *   <li>{@code <prefix>signal_keys}: key ({@code run}, {@code key}); the idempotency keys signals were sent
 *       with, kept after the signals are consumed, and the run's revoked signal URLs (see {@link DynamoSignals}).</li>
 *   <li>{@code <prefix>schedules}: key {@code id}; one item per schedule (see {@link DynamoSchedules}). Indexes
 *       {@value #BY_ID} ({@code all}, {@code id}) for listing and {@value #BY_WAKE} ({@code all}, {@code wk}), a
 *       sparse index of the schedules that have a wake time, both of keys only.</li>
 *   <li>{@code <prefix>queues}: key {@code id}, the queue's name; one item per queue (see {@link DynamoQueues}).
 *       Index {@value #BY_ID} ({@code all}, {@code id}) for listing, of keys only.</li>
 *   <li>{@code <prefix>search}: key ({@code run}, {@code av}); one item per search attribute of a run,
 *       {@code av} = {@code <name>=<stored value>} (see {@link SearchIndex}). Index {@value #BY_VALUE} ({@code av},
 *       {@code ck}) finds the runs of one value newest first, of keys only.</li>
 * </ul>
 */
public record Tables(
        String runs, String events, String signals, String signalKeys, String schedules, String queues, String search) {

    static final String BY_CREATED = "byCreated";
    static final String BY_STATUS = "byStatus";
    static final String BY_WORKFLOW = "byWorkflow";
    static final String BY_DUE = "byDue";
    static final String BY_HELD = "byHeld";
    static final String BY_PARENT = "byParent";
    static final String BY_WAITING = "byWaiting";
    static final String BY_ID = "byId";
    static final String BY_WAKE = "byWake";
    static final String BY_VALUE = "byValue";

    /** What the listing indexes project: enough to filter and count a page without reading the runs. */
    private static final List<String> LISTED = List.of(RunItem.WORKFLOW, RunItem.STATUS, RunItem.CREATED);

    /**
     * Makes sure every table exists and is active, creating what is missing when allowed, and adds the indexes a table
     * made by an earlier version lacks ({@link TableSetup}).
     */
    public void ensure(DynamoDbClient dynamo, AwsSettings settings) {
        new TableSetup(this, dynamo, settings).ensure();
    }

    public static Tables named(String prefix) {
        return new Tables(
                prefix + "runs",
                prefix + "events",
                prefix + "signals",
                prefix + "signal_keys",
                prefix + "schedules",
                prefix + "queues",
                prefix + "search");
    }

    CreateTableRequest runsTable() {
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        indexes.add(index(BY_CREATED, "all", "ck", LISTED));
        indexes.add(index(BY_STATUS, "st", "ck", LISTED));
        indexes.add(index(BY_WORKFLOW, "wf", "ck", LISTED));
        indexes.add(heldIndex());
        indexes.add(parentIndex());
        indexes.add(waitingIndex());
        indexes.add(index(
                BY_DUE,
                "tq",
                "tk",
                List.of(
                        RunItem.QUEUE,
                        RunItem.PRIORITY,
                        TurnState.AVAILABLE,
                        TurnState.TOKEN,
                        TurnState.EXPIRES,
                        TurnState.REQUESTED,
                        TurnState.DELIVERIES,
                        TurnState.VERSION)));
        return CreateTableRequest.builder()
                .tableName(runs)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attr("id"),
                        attr("all"),
                        attr("ck"),
                        attr("st"),
                        attr("wf"),
                        attr("tq"),
                        attr("tk"),
                        attr(RunItem.HELD_KEY),
                        attr(RunItem.PARENT),
                        attr(TurnState.WAIT_KEY))
                .keySchema(KeySchemaElement.builder()
                        .attributeName("id")
                        .keyType(KeyType.HASH)
                        .build())
                .globalSecondaryIndexes(indexes)
                .build();
    }

    static GlobalSecondaryIndex heldIndex() {
        return index(BY_HELD, RunItem.HELD_KEY, "ck", LISTED);
    }

    static GlobalSecondaryIndex parentIndex() {
        return index(BY_PARENT, RunItem.PARENT, "ck", LISTED);
    }

    /** Keys only: {@link DynamoTaskQueue#waiting} reads the runs behind a page consistently ({@link IndexQuery}). */
    static GlobalSecondaryIndex waitingIndex() {
        return keysOnly(BY_WAITING, TurnState.QUEUE, TurnState.WAIT_KEY);
    }

    CreateTableRequest eventsTable() {
        return byRun(events, attr("k"));
    }

    CreateTableRequest signalsTable() {
        return byRun(
                signals,
                AttributeDefinition.builder()
                        .attributeName("sid")
                        .attributeType(ScalarAttributeType.N)
                        .build());
    }

    CreateTableRequest signalKeysTable() {
        return byRun(signalKeys, attr("key"));
    }

    /** A table keyed ({@code run}, {@code range}): the items of each run, together; with these indexes. */
    private static CreateTableRequest byRun(String name, AttributeDefinition range, GlobalSecondaryIndex... indexes) {
        List<AttributeDefinition> defined = new ArrayList<>(List.of(attr("run"), range));
        for (GlobalSecondaryIndex index : indexes) {
            for (KeySchemaElement k : index.keySchema()) {
                if (defined.stream().noneMatch(d -> d.attributeName().equals(k.attributeName()))) {
                    defined.add(attr(k.attributeName()));
                }
            }
        }
        CreateTableRequest.Builder table = CreateTableRequest.builder()
                .tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(defined)
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("run")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName(range.attributeName())
                                .keyType(KeyType.RANGE)
                                .build());
        if (indexes.length > 0) {
            table.globalSecondaryIndexes(indexes);
        }
        return table.build();
    }

    CreateTableRequest schedulesTable() {
        return recordsTable(schedules, keysOnly(BY_WAKE, VersionedItems.ALL, VersionedItems.WAKE_KEY));
    }

    CreateTableRequest queuesTable() {
        return recordsTable(queues);
    }

    /**
     * A table of its own rather than items in the runs table: there they would need a key no run id can be, and every
     * index of runs would have to be kept from them. Keyed by run, so that a purge finds a run's items
     * ({@link DynamoPurge}); the index, one partition per value of an attribute, holds keys only: a search reads the
     * runs it finds in full anyway.
     */
    CreateTableRequest searchTable() {
        return byRun(search, attr(SearchIndex.KEY), valueIndex());
    }

    static GlobalSecondaryIndex valueIndex() {
        return keysOnly(BY_VALUE, SearchIndex.KEY, SearchIndex.CREATED_KEY);
    }

    /**
     * Schedules and queues have a table each rather than items in the runs table: they share no key space, index or
     * lifecycle with runs (a schedule id may equal a run id, retention never deletes them), and the runs table's
     * indexes would each have to be kept from them. Keyed by id, so that their bodies, written at every fire or
     * admission, spread over the table's partitions; the indexes, whose partition key is one constant, hold keys only.
     */
    private static CreateTableRequest recordsTable(String name, GlobalSecondaryIndex... more) {
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        indexes.add(keysOnly(BY_ID, VersionedItems.ALL, VersionedItems.ID));
        indexes.addAll(List.of(more));
        return CreateTableRequest.builder()
                .tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(indexes.stream()
                        .flatMap(i -> i.keySchema().stream().map(KeySchemaElement::attributeName))
                        .distinct()
                        .map(Tables::attr)
                        .toList())
                .keySchema(KeySchemaElement.builder()
                        .attributeName(VersionedItems.ID)
                        .keyType(KeyType.HASH)
                        .build())
                .globalSecondaryIndexes(indexes)
                .build();
    }

    private static GlobalSecondaryIndex keysOnly(String name, String hash, String range) {
        return index(name, hash, range, List.of()).toBuilder()
                .projection(Projection.builder()
                        .projectionType(ProjectionType.KEYS_ONLY)
                        .build())
                .build();
    }

    static AttributeDefinition attr(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    /**
     * An index projecting only what its readers need: the listing indexes are written when a run is created
     * or changes status, the due index when its turn changes; never by an append alone.
     */
    private static GlobalSecondaryIndex index(String name, String hash, String range, List<String> projected) {
        return GlobalSecondaryIndex.builder()
                .indexName(name)
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName(hash)
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName(range)
                                .keyType(KeyType.RANGE)
                                .build())
                .projection(Projection.builder()
                        .projectionType(ProjectionType.INCLUDE)
                        .nonKeyAttributes(projected)
                        .build())
                .build();
    }
}
