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
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
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

import java.util.ArrayList;
import java.util.List;

/**
 * The four tables and the runs table's indexes; creates what is missing (when allowed) and waits until
 * it is active.
 *
 * <ul>
 *   <li>{@code <prefix>runs}: key {@code id}; one item per run (projection, turn state, signal counter).
 *       Indexes {@value #BY_CREATED} ({@code all}, {@code ck}), {@value #BY_STATUS} ({@code st}, {@code ck}),
 *       {@value #BY_WORKFLOW} ({@code wf}, {@code ck}) for listing, and {@value #BY_DUE} ({@code tq}, {@code tk})
 *       for leasing, a sparse index of the runs that have a turn, and {@value #BY_HELD} ({@code hk}, {@code ck}), a
 *       sparse index of the held runs.</li>
 *   <li>{@code <prefix>events}: key ({@code run}, {@code k}); the log, in pages (see {@link EventPages}).</li>
 *   <li>{@code <prefix>signals}: key ({@code run}, {@code sid}); signals not yet cleaned up after consumption.</li>
 *   <li>{@code <prefix>signal_keys}: key ({@code run}, {@code key}); the idempotency keys signals were sent
 *       with, kept after the signals are consumed.</li>
 * </ul>
 */
public record Tables(String runs, String events, String signals, String signalKeys) {

    private static final Logger log = LoggerFactory.getLogger(Tables.class);

    static final String BY_CREATED = "byCreated";
    static final String BY_STATUS = "byStatus";
    static final String BY_WORKFLOW = "byWorkflow";
    static final String BY_DUE = "byDue";
    static final String BY_HELD = "byHeld";

    public static Tables named(String prefix) {
        return new Tables(prefix + "runs", prefix + "events", prefix + "signals", prefix + "signal_keys");
    }

    /** Makes sure every table exists and is active. */
    public void ensure(DynamoDbClient dynamo, AwsSettings settings) {
        TableDescription runsTable = ensure(dynamo, settings, runsTable());
        try {
            ensureHeldIndex(dynamo, settings, runsTable);
        } catch (SdkException e) {
            throw new WorldException(
                    "AWS world: cannot add index " + BY_HELD + " to DynamoDB table " + runs + ": "
                            + AwsFailures.describe(e),
                    AwsFailures.isTransient(e),
                    e);
        }
        ensure(dynamo, settings, eventsTable());
        ensure(dynamo, settings, signalsTable());
        ensure(dynamo, settings, signalKeysTable());
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
                dynamo.waiter().waitUntilTableExists(b -> b.tableName(name));
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
        List<String> listed = List.of(RunItem.WORKFLOW, RunItem.STATUS, RunItem.CREATED);
        indexes.add(index(BY_CREATED, "all", "ck", listed));
        indexes.add(index(BY_STATUS, "st", "ck", listed));
        indexes.add(index(BY_WORKFLOW, "wf", "ck", listed));
        indexes.add(heldIndex());
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
                        attr(RunItem.HELD_KEY))
                .keySchema(KeySchemaElement.builder()
                        .attributeName("id")
                        .keyType(KeyType.HASH)
                        .build())
                .globalSecondaryIndexes(indexes)
                .build();
    }

    private static GlobalSecondaryIndex heldIndex() {
        return index(BY_HELD, RunItem.HELD_KEY, "ck", List.of(RunItem.WORKFLOW, RunItem.STATUS, RunItem.CREATED));
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
        GlobalSecondaryIndex index = heldIndex();
        try {
            dynamo.updateTable(b -> b.tableName(runs)
                    .attributeDefinitions(attr(RunItem.HELD_KEY), attr("ck"))
                    .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                            .create(CreateGlobalSecondaryIndexAction.builder()
                                    .indexName(BY_HELD)
                                    .keySchema(index.keySchema())
                                    .projection(index.projection())
                                    .build())
                            .build()));
            log.info("adding index {} to DynamoDB table {}", BY_HELD, runs);
        } catch (ResourceInUseException | LimitExceededException raced) {
            log.debug(
                    "index {} of table {} is being changed by another process: {}", BY_HELD, runs, raced.getMessage());
        }
    }

    private CreateTableRequest eventsTable() {
        return CreateTableRequest.builder()
                .tableName(events)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attr("run"), attr("k"))
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("run")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName("k")
                                .keyType(KeyType.RANGE)
                                .build())
                .build();
    }

    private CreateTableRequest signalsTable() {
        return CreateTableRequest.builder()
                .tableName(signals)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attr("run"),
                        AttributeDefinition.builder()
                                .attributeName("sid")
                                .attributeType(ScalarAttributeType.N)
                                .build())
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("run")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName("sid")
                                .keyType(KeyType.RANGE)
                                .build())
                .build();
    }

    private CreateTableRequest signalKeysTable() {
        return CreateTableRequest.builder()
                .tableName(signalKeys)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attr("run"), attr("key"))
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("run")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName("key")
                                .keyType(KeyType.RANGE)
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
