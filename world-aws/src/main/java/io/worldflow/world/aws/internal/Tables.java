package io.worldflow.world.aws.internal;

import io.worldflow.WorldException;
import io.worldflow.world.aws.AwsWorldProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The seven tables and their indexes; creates what is missing (when allowed) and waits until it is active. The partition
 * keys many items share ({@code all}, {@code st}, {@code wf}, {@code tq}, {@code hk}, {@code av}) hold one of several
 * shard keys each ({@link Shards}).
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

    private static final Logger log = LoggerFactory.getLogger(Tables.class);

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
     * How long opening waits for DynamoDB to build an index added to an existing table. A small table takes
     * minutes; a large one may take longer, and is then waited for again by the next opening.
     */
    private static final Duration INDEX_BUILD_WAIT = Duration.ofMinutes(15);

    /** The indexes opening adds to a runs table made before them, and waits for. */
    private static final List<Wanted> ADDED_LATER = List.of(
            new Wanted(parentIndex(), "lists a run's child runs"),
            new Wanted(waitingIndex(), "lists the turns that wait in a queue to be admitted"));

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

    /** Makes sure every table exists and is active. */
    public void ensure(DynamoDbClient dynamo, AwsSettings settings) {
        TableDescription runsTable = ensure(dynamo, settings, runsTable());
        try {
            ensureHeldIndex(dynamo, settings, runsTable);
        } catch (SdkException e) {
            throw cannotAdd(runs, BY_HELD, e);
        }
        try {
            ensureIndexes(dynamo, settings, runsTable, ADDED_LATER);
        } catch (SdkException e) {
            throw cannotAdd(runs, BY_PARENT + " or " + BY_WAITING, e);
        }
        ensure(dynamo, settings, eventsTable());
        ensure(dynamo, settings, signalsTable());
        ensure(dynamo, settings, signalKeysTable());
        ensure(dynamo, settings, schedulesTable());
        ensure(dynamo, settings, queuesTable());
        // a new table to tables made before search attributes: created whole, its index with it; a table made by hand
        // without its index gains it as the runs table gains its own
        TableDescription searchTable = ensure(dynamo, settings, searchTable());
        try {
            ensureIndexes(
                    dynamo,
                    settings,
                    searchTable,
                    List.of(new Wanted(valueIndex(), "finds runs by a search attribute")));
        } catch (SdkException e) {
            throw cannotAdd(search, BY_VALUE, e);
        }
    }

    private static TableDescription ensure(DynamoDbClient dynamo, AwsSettings settings, CreateTableRequest request) {
        String name = request.tableName();
        try {
            TableDescription t;
            try {
                t = dynamo.describeTable(b -> b.tableName(name)).table();
            } catch (ResourceNotFoundException missing) {
                if (!settings.createResources()) {
                    throw new WorldException(
                            "AWS world: DynamoDB table " + name + " does not exist and "
                                    + AwsWorldProvider.CREATE_RESOURCES
                                    + " is false; create it (see the world-aws README) or "
                                    + "allow creating it",
                            false,
                            missing);
                }
                try {
                    dynamo.createTable(request);
                    log.info("created DynamoDB table {}", name);
                } catch (ResourceInUseException raced) {
                    log.debug("table {} is being created by another process", name);
                }
                t = dynamo.describeTable(b -> b.tableName(name)).table();
            }
            if (t.tableStatus() != TableStatus.ACTIVE) {
                TableDescription created = t;
                t = dynamo.waiter()
                        .waitUntilTableExists(b -> b.tableName(name))
                        .matched()
                        .response()
                        .map(DescribeTableResponse::table)
                        .orElse(created);
            }
            return t;
        } catch (SdkException e) {
            throw new WorldException(
                    "AWS world: cannot reach DynamoDB table " + name + " at the endpoint set by "
                            + settings.dynamoEndpointKey() + " ("
                            + (settings.dynamoEndpoint() == null ? settings.region() : settings.dynamoEndpoint())
                            + "): " + AwsFailures.describe(e),
                    AwsFailures.isTransient(e),
                    e);
        }
    }

    private CreateTableRequest runsTable() {
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

    private static GlobalSecondaryIndex heldIndex() {
        return index(BY_HELD, RunItem.HELD_KEY, "ck", LISTED);
    }

    private static GlobalSecondaryIndex parentIndex() {
        return index(BY_PARENT, RunItem.PARENT, "ck", LISTED);
    }

    /** Keys only: {@link DynamoTaskQueue#waiting} reads the runs behind a page consistently ({@link IndexQuery}). */
    private static GlobalSecondaryIndex waitingIndex() {
        return keysOnly(BY_WAITING, TurnState.QUEUE, TurnState.WAIT_KEY);
    }

    /** An index a runs table made by an earlier version may lack, and what it serves, for messages. */
    private record Wanted(GlobalSecondaryIndex index, String serves) {

        String name() {
            return index.indexName();
        }

        /** How to add it by hand: its keys and projection, as UpdateTable takes them. */
        String shape() {
            Projection p = index.projection();
            return "hash key " + index.keySchema().get(0).attributeName() + ", sort key "
                    + index.keySchema().get(1).attributeName() + ", both strings; "
                    + (p.projectionType() == ProjectionType.KEYS_ONLY
                            ? "keys only"
                            : "projecting " + String.join(", ", p.nonKeyAttributes()));
        }
    }

    /**
     * Adds the index of held runs to a runs table created before it existed. DynamoDB builds it in the background;
     * until then a query for held runs fails with a clear error, and everything else works as before.
     */
    private void ensureHeldIndex(DynamoDbClient dynamo, AwsSettings settings, TableDescription t) {
        if (t.globalSecondaryIndexes().stream().anyMatch(i -> i.indexName().equals(BY_HELD))) {
            return;
        }
        if (!settings.createResources()) {
            log.warn(
                    "DynamoDB table {} has no index {}: listing held runs fails until it is added (see the world-aws "
                            + "README)",
                    runs,
                    BY_HELD);
            return;
        }
        requestIndex(dynamo, runs, heldIndex());
    }

    /**
     * Adds the indexes of child runs and of waiting turns to a runs table created before them (and the index of values
     * to a search table made without it), and waits until DynamoDB has built them: DynamoDB refuses to read an index it
     * is still filling, and a world once open should answer every query. Without leave to change the table, a missing
     * index stops the opening, naming it, rather than the first query that needs it failing later.
     */
    private void ensureIndexes(DynamoDbClient dynamo, AwsSettings settings, TableDescription opened, List<Wanted> all) {
        String table = opened.tableName();
        long deadline = System.nanoTime() + INDEX_BUILD_WAIT.toNanos();
        TableDescription t = opened;
        Set<String> told = new HashSet<>();
        for (int round = 0; ; round++) {
            List<String> building = new ArrayList<>();
            for (Wanted wanted : all) {
                IndexStatus status = status(t, wanted.name());
                if (status == IndexStatus.ACTIVE) {
                    continue;
                }
                if (status == null) {
                    if (!settings.createResources()) {
                        throw new WorldException(
                                "AWS world: DynamoDB table " + table + " has no index " + wanted.name() + ", which "
                                        + wanted.serves() + ", and " + AwsWorldProvider.CREATE_RESOURCES
                                        + " is false; add it with UpdateTable (" + wanted.shape()
                                        + "; see the world-aws README) or allow adding it",
                                false,
                                null);
                    }
                    // refused while the table is busy (another index being added, perhaps by another process): the
                    // next round finds the index there, or asks again
                    requestIndex(dynamo, table, wanted.index());
                } else if (told.add(wanted.name())) {
                    log.info("waiting for DynamoDB to build index {} of table {} ({})", wanted.name(), table, status);
                }
                building.add(wanted.name() + " (" + (status == null ? "not begun" : status) + ")");
            }
            if (building.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new WorldException(
                        "AWS world: index " + String.join(", ", building) + " of DynamoDB table " + table
                                + " is not active after " + INDEX_BUILD_WAIT.toMinutes()
                                + " minutes; DynamoDB goes on building it: open the world again later",
                        true,
                        null);
            }
            pause(round);
            t = dynamo.describeTable(b -> b.tableName(table)).table();
        }
    }

    /** The status of the table's index, or null when it has none of that name. */
    private static IndexStatus status(TableDescription t, String index) {
        return t.globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals(index))
                .map(GlobalSecondaryIndexDescription::indexStatus)
                .findFirst()
                .orElse(null);
    }

    /**
     * Asks DynamoDB to add an index to a table, which it then builds in the background. DynamoDB takes one index
     * change at a time: while another is under way (perhaps by another process opening the world) the request is
     * refused, and left for later.
     */
    private static void requestIndex(DynamoDbClient dynamo, String table, GlobalSecondaryIndex index) {
        try {
            dynamo.updateTable(b -> b.tableName(table)
                    .attributeDefinitions(index.keySchema().stream()
                            .map(k -> attr(k.attributeName()))
                            .toList())
                    .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                            .create(CreateGlobalSecondaryIndexAction.builder()
                                    .indexName(index.indexName())
                                    .keySchema(index.keySchema())
                                    .projection(index.projection())
                                    .build())
                            .build()));
            log.info("adding index {} to DynamoDB table {}", index.indexName(), table);
        } catch (ResourceInUseException | LimitExceededException busy) {
            log.debug(
                    "index {} of table {} is not added now, the table is busy: {}",
                    index.indexName(),
                    table,
                    busy.getMessage());
        }
    }

    private static void pause(int round) {
        try {
            Thread.sleep(Math.min(5_000L, 50L << Math.min(round, 7)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("AWS world: interrupted while waiting for a DynamoDB index", true, e);
        }
    }

    private static WorldException cannotAdd(String table, String index, SdkException e) {
        return new WorldException(
                "AWS world: cannot add index " + index + " to DynamoDB table " + table + ": " + AwsFailures.describe(e),
                AwsFailures.isTransient(e),
                e);
    }

    private CreateTableRequest eventsTable() {
        return byRun(events, attr("k"));
    }

    private CreateTableRequest signalsTable() {
        return byRun(
                signals,
                AttributeDefinition.builder()
                        .attributeName("sid")
                        .attributeType(ScalarAttributeType.N)
                        .build());
    }

    private CreateTableRequest signalKeysTable() {
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

    private CreateTableRequest schedulesTable() {
        return recordsTable(schedules, keysOnly(BY_WAKE, VersionedItems.ALL, VersionedItems.WAKE_KEY));
    }

    private CreateTableRequest queuesTable() {
        return recordsTable(queues);
    }

    /**
     * A table of its own rather than items in the runs table: there they would need a key no run id can be, and every
     * index of runs would have to be kept from them. Keyed by run, so that a purge finds a run's items
     * ({@link DynamoPurge}); the index, one partition per value of an attribute, holds keys only: a search reads the
     * runs it finds in full anyway.
     */
    private CreateTableRequest searchTable() {
        return byRun(search, attr(SearchIndex.KEY), valueIndex());
    }

    private static GlobalSecondaryIndex valueIndex() {
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

    private static AttributeDefinition attr(String name) {
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
