package io.worldflow.world.aws;

import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;
import io.worldflow.world.aws.internal.AwsWorld;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code aws} world: each run's event log in DynamoDB (partitioned by run id, appended with conditional
 * transactions), its turn state in DynamoDB next to the run, and wake-up messages for turns on SQS queues,
 * consumed by worker processes or by an AWS Lambda function ({@code SqsTurnHandler}, in {@code world-aws-lambda}).
 * Tables and queues are created when missing unless {@value #CREATE_RESOURCES} is false. See the module's README
 * for the design, its limits and its cost.
 */
public final class AwsWorldProvider implements WorldProvider {

    /** The name to put in {@code worldflow.world}. */
    public static final String NAME = "aws";

    public static final String REGION = "worldflow.aws.region";
    public static final String ENDPOINT = "worldflow.aws.endpoint";
    public static final String DYNAMODB_ENDPOINT = "worldflow.aws.dynamodb-endpoint";
    public static final String SQS_ENDPOINT = "worldflow.aws.sqs-endpoint";
    public static final String TABLE_PREFIX = "worldflow.aws.table-prefix";
    public static final String QUEUE_PREFIX = "worldflow.aws.queue-prefix";
    public static final String CREATE_RESOURCES = "worldflow.aws.create-resources";
    public static final String ACCESS_KEY_ID = "worldflow.aws.access-key-id";
    public static final String SECRET_ACCESS_KEY = "worldflow.aws.secret-access-key";
    public static final String MAX_ATTEMPTS = "worldflow.aws.max-attempts";
    public static final String API_TIMEOUT = "worldflow.aws.api-timeout";
    public static final String WAKE_POLL = "worldflow.aws.wake-poll";
    public static final String CONSUME_WAKES = "worldflow.aws.consume-wakes";
    public static final String INDEX_SHARDS = "worldflow.aws.index-shards";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, String> configKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(REGION, "AWS region, e.g. eu-west-1 (required unless AWS_REGION is set)");
        keys.put(ENDPOINT, "endpoint URL for both DynamoDB and SQS (emulators, VPC endpoints); default: AWS's own");
        keys.put(DYNAMODB_ENDPOINT, "endpoint URL for DynamoDB only (overrides " + ENDPOINT + ")");
        keys.put(SQS_ENDPOINT, "endpoint URL for SQS only (overrides " + ENDPOINT + ")");
        keys.put(TABLE_PREFIX, "prefix of the table names, letters, digits, _ . - (default worldflow_)");
        keys.put(QUEUE_PREFIX, "prefix of the queue names, letters, digits, _ - (default worldflow-)");
        keys.put(CREATE_RESOURCES, "create tables and queues when missing (default true)");
        keys.put(ACCESS_KEY_ID, "static access key id (emulators); default: the SDK's default credentials chain");
        keys.put(SECRET_ACCESS_KEY, "static secret access key, with " + ACCESS_KEY_ID);
        keys.put(MAX_ATTEMPTS, "attempts per AWS call on throttling and 5xx, with backoff (default 8)");
        keys.put(API_TIMEOUT, "time limit of one AWS call including its retries (default 30s)");
        keys.put(
                CONSUME_WAKES,
                "an idle worker consumes SQS wake-ups itself (default true; false under Lambda, whose "
                        + "event source mapping consumes them)");
        keys.put(WAKE_POLL, "long-poll wait of the SQS wake-up consumer, 1s..20s (default 20s)");
        keys.put(
                INDEX_SHARDS,
                "shards of each index key many runs share (byCreated, byStatus, byDue, ...), 1..64; may be raised, "
                        + "never lowered (default 1)");
        return Collections.unmodifiableMap(keys);
    }

    @Override
    public World create(WorldContext context) {
        return AwsWorld.open(context);
    }
}
