package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.internal.LogItemTamper;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The conformance kit on the AWS world, one table and queue prefix per storage id, on the services a subclass names:
 * the in-process emulators ({@link AwsConformanceTest}) or LocalStack in a container ({@link
 * AwsConformanceOnContainers}).
 */
abstract class AwsConformance extends WorldConformanceKit {

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
        return configWithPrefix(storageId + "_");
    }

    /** Every item of every table of the storage's prefix, as the SDK writes an item as text. */
    @Override
    protected String storedText(String storageId) {
        StringBuilder out = new StringBuilder();
        try (DynamoDbClient dynamo = dynamoClient()) {
            for (String table : dynamo.listTablesPaginator().tableNames()) {
                if (table.startsWith(storageId + "_")) {
                    dynamo.scanPaginator(b -> b.tableName(table))
                            .items()
                            .forEach(item -> out.append(item).append('\n'));
                }
            }
        }
        return out.toString();
    }

    /** Edits the run's items in the storage's tables directly: see {@link LogItemTamper}. */
    @Override
    protected void tamper(String storageId, String runId, Tamper how, long seq) {
        try (DynamoDbClient dynamo = dynamoClient()) {
            new LogItemTamper(dynamo, storageId + "_").tamper(runId, how, seq);
        }
    }
}
