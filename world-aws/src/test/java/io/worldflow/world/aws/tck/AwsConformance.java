package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.internal.LogItemTamper;
import org.junit.jupiter.api.AfterEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The conformance kit on the AWS world, one table and queue prefix per storage id, on the services a subclass names:
 * the in-process emulators ({@link AwsConformanceTest}) or LocalStack in a container ({@link
 * AwsConformanceOnContainers}). A storage's tables are those of an earlier test, emptied, when one is free ({@link
 * ReusedTables}); its queues are always its own.
 */
abstract class AwsConformance extends WorldConformanceKit {

    /** The table prefix each storage id of this test was given. */
    private final Map<String, String> tables = new ConcurrentHashMap<>();

    /** The world's configuration over these services, with this prefix for its tables and queues. */
    protected abstract WorldConfig configWithPrefix(String prefix);

    /** A client of the DynamoDB the worlds use; the caller closes it. */
    protected abstract DynamoDbClient dynamoClient();

    @Override
    protected WorldProvider provider() {
        return new AwsWorldProvider();
    }

    /** Its worker access leases a new run's first turn in the write that creates it. */
    @Override
    protected boolean leasesAtCreation() {
        return true;
    }

    @Override
    protected WorldConfig config(String storageId) {
        return configWithPrefix(tables(storageId)).with(AwsWorldProvider.QUEUE_PREFIX, storageId + "-");
    }

    private String tables(String storageId) {
        return tables.computeIfAbsent(storageId, id -> {
            String free = ReusedTables.take(getClass());
            return free == null ? id + "_" : free;
        });
    }

    /** Runs after the test's own cleanup has closed its worlds: its tables are emptied for the next test. */
    @AfterEach
    void emptyTables() {
        try (DynamoDbClient dynamo = dynamoClient()) {
            for (String prefix : tables.values()) {
                ReusedTables.give(getClass(), dynamo, prefix);
            }
        }
    }

    /**
     * Every item of every table of the storage's prefix, as the SDK writes an item as text, followed by the bytes of
     * each binary attribute as text (the SDK writes them in hex, where no marker would ever be found).
     */
    @Override
    protected String storedText(String storageId) {
        StringBuilder out = new StringBuilder();
        try (DynamoDbClient dynamo = dynamoClient()) {
            for (String table : ReusedTables.tables(dynamo, tables(storageId))) {
                dynamo.scanPaginator(b -> b.tableName(table)).items().forEach(item -> {
                    out.append(item).append('\n');
                    item.values().stream()
                            .filter(v -> v.b() != null)
                            .forEach(v -> out.append(new String(v.b().asByteArray(), StandardCharsets.ISO_8859_1))
                                    .append('\n'));
                });
            }
        }
        return out.toString();
    }

    /** Edits the run's items in the storage's tables directly: see {@link LogItemTamper}. */
    @Override
    protected void tamper(String storageId, String runId, Tamper how, long seq) {
        try (DynamoDbClient dynamo = dynamoClient()) {
            new LogItemTamper(dynamo, tables(storageId)).tamper(runId, how, seq);
        }
    }
}
