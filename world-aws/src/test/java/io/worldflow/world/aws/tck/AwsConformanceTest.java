package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.world.aws.Emulators;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The conformance kit on the AWS world, on the shared in-process emulators (DynamoDB Local and ElasticMQ). */
class AwsConformanceTest extends AwsConformance {

    @Override
    protected WorldConfig configWithPrefix(String prefix) {
        return Emulators.shared().config(prefix);
    }

    @Override
    protected DynamoDbClient dynamoClient() {
        return Emulators.shared().dynamoClient();
    }
}
