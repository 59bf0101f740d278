package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.Emulators;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The conformance kit on the AWS world with every shared index key spread over 16 shards: listing, leasing, admission,
 * schedules, queues and search read every shard and merge them, and must answer exactly as with one.
 */
class AwsShardedConformanceTest extends AwsConformance {

    static final int SHARDS = 16;

    @Override
    protected WorldConfig configWithPrefix(String prefix) {
        return Emulators.shared().config(prefix).with(AwsWorldProvider.INDEX_SHARDS, String.valueOf(SHARDS));
    }

    @Override
    protected DynamoDbClient dynamoClient() {
        return Emulators.shared().dynamoClient();
    }
}
