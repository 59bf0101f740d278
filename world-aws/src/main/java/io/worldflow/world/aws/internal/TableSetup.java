package io.worldflow.world.aws.internal;

import io.worldflow.WorldException;
import io.worldflow.world.aws.AwsWorldProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Makes the tables of {@link Tables} exist and be active when a world opens: creates what is missing (when allowed),
 * adds the indexes a table made by an earlier version lacks, and waits until DynamoDB says each is active.
 */
final class TableSetup {

    private static final Logger log = LoggerFactory.getLogger(TableSetup.class);

    /**
     * How long opening waits for DynamoDB to build an index added to an existing table. A small table takes
     * minutes; a large one may take longer, and is then waited for again by the next opening.
     */
    private static final Duration INDEX_BUILD_WAIT = Duration.ofMinutes(15);

    /** How long opening waits for a table it asked for to become active: DynamoDB takes seconds. */
    private static final Duration TABLE_CREATE_WAIT = Duration.ofMinutes(10);

    /** The indexes opening adds to a runs table made before them, and waits for. */
    private static final List<Wanted> ADDED_LATER = List.of(
            new Wanted(Tables.parentIndex(), "lists a run's child runs"),
            new Wanted(Tables.waitingIndex(), "lists the turns that wait in a queue to be admitted"));

    private final Tables tables;
    private final DynamoDbClient dynamo;
    private final AwsSettings settings;
    private final Duration tableCreateWait;
    private final Duration indexBuildWait;

    TableSetup(Tables tables, DynamoDbClient dynamo, AwsSettings settings) {
        this(tables, dynamo, settings, TABLE_CREATE_WAIT, INDEX_BUILD_WAIT);
    }

    /** With other limits than the default waits for a table and for an index, for tests of what happens past them. */
    TableSetup(
            Tables tables,
            DynamoDbClient dynamo,
            AwsSettings settings,
            Duration tableCreateWait,
            Duration indexBuildWait) {
        this.tables = tables;
        this.dynamo = dynamo;
        this.settings = settings;
        this.tableCreateWait = tableCreateWait;
        this.indexBuildWait = indexBuildWait;
    }

    /**
     * Makes sure every table exists and is active. Every missing table is asked for before any is waited for:
     * DynamoDB takes seconds to make a table and makes several side by side, so a first opening waits about as long
     * as for one table, not for seven one after another. What is missing without leave to create it is reported in
     * the same order as it is looked at: the runs table, its indexes, the other tables, the search table's index.
     */
    void ensure() {
        List<CreateTableRequest> wanted = List.of(
                tables.runsTable(),
                tables.eventsTable(),
                tables.signalsTable(),
                tables.signalKeysTable(),
                tables.schedulesTable(),
                tables.queuesTable(),
                // a new table to tables made before search attributes: created whole, its index with it; a table
                // made by hand without its index gains it as the runs table gains its own
                tables.searchTable());
        List<Found> found = new ArrayList<>();
        for (CreateTableRequest request : wanted) {
            found.add(describeOrCreate(request));
        }
        TableDescription runsTable = active(found.getFirst());
        try {
            ensureHeldIndex(runsTable);
        } catch (SdkException e) {
            throw cannotAdd(tables.runs(), Tables.BY_HELD, e);
        }
        try {
            ensureIndexes(runsTable, ADDED_LATER);
        } catch (SdkException e) {
            throw cannotAdd(tables.runs(), Tables.BY_PARENT + " or " + Tables.BY_WAITING, e);
        }
        for (Found f : found.subList(1, found.size() - 1)) {
            active(f);
        }
        TableDescription searchTable = active(found.getLast());
        try {
            ensureIndexes(searchTable, List.of(new Wanted(Tables.valueIndex(), "finds runs by a search attribute")));
        } catch (SdkException e) {
            throw cannotAdd(tables.search(), Tables.BY_VALUE, e);
        }
    }

    /**
     * A table as DynamoDB first described it ({@code table}), or as missing ({@code missing}) when there is no leave
     * to create it.
     */
    private record Found(String name, TableDescription table, ResourceNotFoundException missing) {}

    /** The table as DynamoDB describes it, asked for first when missing and allowed (it may not be active yet). */
    private Found describeOrCreate(CreateTableRequest request) {
        String name = request.tableName();
        try {
            try {
                return new Found(name, describe(name), null);
            } catch (ResourceNotFoundException missing) {
                if (!settings.createResources()) {
                    return new Found(name, null, missing);
                }
                try {
                    dynamo.createTable(request);
                    log.info("created DynamoDB table {}", name);
                } catch (ResourceInUseException raced) {
                    log.debug("table {} is being created by another process", name);
                }
                return new Found(name, describe(name), null);
            }
        } catch (SdkException e) {
            throw unreachable(name, e);
        }
    }

    /**
     * The table once DynamoDB says it is active, looked at again after a short pause that grows to a few seconds:
     * DynamoDB's own waiter looks every 20 seconds, which would make a first opening last minutes.
     */
    private TableDescription active(Found found) {
        String name = found.name();
        if (found.table() == null) {
            throw new WorldException(
                    "AWS world: DynamoDB table " + name + " does not exist and " + AwsWorldProvider.CREATE_RESOURCES
                            + " is false; create it (see the world-aws README) or allow creating it",
                    false,
                    found.missing());
        }
        long deadline = System.nanoTime() + tableCreateWait.toNanos();
        TableDescription t = found.table();
        try {
            for (int round = 0; t.tableStatus() != TableStatus.ACTIVE; round++) {
                if (System.nanoTime() - deadline > 0) {
                    throw new WorldException(
                            "AWS world: DynamoDB table " + name + " is " + t.tableStatus() + ", not active, after "
                                    + spoken(tableCreateWait) + "; open the world again later",
                            true,
                            null);
                }
                if (round == 0) {
                    log.info("waiting for DynamoDB table {} to become active ({})", name, t.tableStatus());
                }
                pause(round);
                t = describe(name);
            }
            return t;
        } catch (SdkException e) {
            throw unreachable(name, e);
        }
    }

    private WorldException unreachable(String table, SdkException e) {
        return new WorldException(
                "AWS world: cannot reach DynamoDB table " + table + " at the endpoint set by "
                        + settings.dynamoEndpointKey() + " ("
                        + (settings.dynamoEndpoint() == null ? settings.region() : settings.dynamoEndpoint())
                        + "): " + AwsFailures.describe(e),
                AwsFailures.isTransient(e),
                e);
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
    private void ensureHeldIndex(TableDescription t) {
        if (t.globalSecondaryIndexes().stream().anyMatch(i -> i.indexName().equals(Tables.BY_HELD))) {
            return;
        }
        if (!settings.createResources()) {
            log.warn(
                    "DynamoDB table {} has no index {}: listing held runs fails until it is added (see the world-aws "
                            + "README)",
                    tables.runs(),
                    Tables.BY_HELD);
            return;
        }
        requestIndex(tables.runs(), Tables.heldIndex());
    }

    /**
     * Adds the indexes of child runs and of waiting turns to a runs table created before them (and the index of values
     * to a search table made without it), and waits until DynamoDB has built them: DynamoDB refuses to read an index it
     * is still filling, and a world once open should answer every query. Without leave to change the table, a missing
     * index stops the opening, naming it, rather than the first query that needs it failing later.
     */
    private void ensureIndexes(TableDescription opened, List<Wanted> all) {
        String table = opened.tableName();
        long deadline = System.nanoTime() + indexBuildWait.toNanos();
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
                    requestIndex(table, wanted.index());
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
                                + " is not active after " + spoken(indexBuildWait)
                                + "; DynamoDB goes on building it: open the world again later",
                        true,
                        null);
            }
            pause(round);
            t = describe(table);
        }
    }

    private TableDescription describe(String table) {
        return dynamo.describeTable(b -> b.tableName(table)).table();
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
    private void requestIndex(String table, GlobalSecondaryIndex index) {
        try {
            dynamo.updateTable(b -> b.tableName(table)
                    .attributeDefinitions(index.keySchema().stream()
                            .map(k -> Tables.attr(k.attributeName()))
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

    /** A wait as a message says it: in whole minutes, or in milliseconds when shorter than a minute. */
    static String spoken(Duration wait) {
        return wait.toMinutes() > 0 ? wait.toMinutes() + " minutes" : wait.toMillis() + " ms";
    }

    private static void pause(int round) {
        try {
            Thread.sleep(Math.min(5_000L, 50L << Math.min(round, 7)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("AWS world: interrupted while waiting for DynamoDB", true, e);
        }
    }

    private static WorldException cannotAdd(String table, String index, SdkException e) {
        return new WorldException(
                "AWS world: cannot add index " + index + " to DynamoDB table " + table + ": " + AwsFailures.describe(e),
                AwsFailures.isTransient(e),
                e);
    }
}
