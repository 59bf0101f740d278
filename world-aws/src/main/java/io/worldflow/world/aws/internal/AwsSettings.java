package io.worldflow.world.aws.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static io.worldflow.world.aws.AwsWorldProvider.ACCESS_KEY_ID;
import static io.worldflow.world.aws.AwsWorldProvider.API_TIMEOUT;
import static io.worldflow.world.aws.AwsWorldProvider.CONSUME_WAKES;
import static io.worldflow.world.aws.AwsWorldProvider.CREATE_RESOURCES;
import static io.worldflow.world.aws.AwsWorldProvider.DYNAMODB_ENDPOINT;
import static io.worldflow.world.aws.AwsWorldProvider.ENDPOINT;
import static io.worldflow.world.aws.AwsWorldProvider.INDEX_SHARDS;
import static io.worldflow.world.aws.AwsWorldProvider.MAX_ATTEMPTS;
import static io.worldflow.world.aws.AwsWorldProvider.QUEUE_PREFIX;
import static io.worldflow.world.aws.AwsWorldProvider.REGION;
import static io.worldflow.world.aws.AwsWorldProvider.SECRET_ACCESS_KEY;
import static io.worldflow.world.aws.AwsWorldProvider.SQS_ENDPOINT;
import static io.worldflow.world.aws.AwsWorldProvider.TABLE_PREFIX;
import static io.worldflow.world.aws.AwsWorldProvider.WAKE_POLL;

/**
 * The AWS world's configuration, checked: every bad value fails naming its key.
 *
 * @param region           the AWS region
 * @param dynamoEndpoint   DynamoDB endpoint override, or null for AWS's own
 * @param sqsEndpoint      SQS endpoint override, or null for AWS's own
 * @param tablePrefix      put before the table names
 * @param queuePrefix      put before the queue names
 * @param createResources  create missing tables and queues
 * @param accessKeyId      static credentials, or null for the SDK's default chain
 * @param secretAccessKey  with {@code accessKeyId}
 * @param maxAttempts      attempts per call on retryable failures
 * @param apiTimeout       time limit of one call including retries
 * @param wakePoll         long-poll wait of the wake-up consumer
 * @param consumeWakes     whether subscribers start the SQS wake-up consumer
 * @param indexShards      shards of each index key many runs share ({@link Shards})
 */
public record AwsSettings(
        String region,
        URI dynamoEndpoint,
        URI sqsEndpoint,
        String tablePrefix,
        String queuePrefix,
        boolean createResources,
        String accessKeyId,
        String secretAccessKey,
        int maxAttempts,
        Duration apiTimeout,
        Duration wakePoll,
        boolean consumeWakes,
        int indexShards) {

    private static final Pattern REGION_NAME = Pattern.compile("[a-z]{2,}(-[a-z0-9]+)+");
    private static final Pattern TABLE_CHARS = Pattern.compile("[A-Za-z0-9_.-]{0,200}");
    private static final Pattern QUEUE_CHARS = Pattern.compile("[A-Za-z0-9_-]{0,40}");

    public static AwsSettings from(WorldConfig config) {
        return from(config, System.getenv());
    }

    /** @param env the process environment, for {@code AWS_REGION} */
    static AwsSettings from(WorldConfig config, Map<String, String> env) {
        String region = config.get(REGION).orElseGet(() -> blankToNull(env.get("AWS_REGION")));
        if (region == null) {
            throw new ConfigurationException("missing configuration key " + REGION
                    + " (the AWS region, e.g. eu-west-1; AWS_REGION is not set either)");
        }
        if (!REGION_NAME.matcher(region).matches()) {
            throw new ConfigurationException(REGION + " must be an AWS region such as eu-west-1, was '" + region + "'");
        }
        URI both = endpoint(config, ENDPOINT).orElse(null);
        URI dynamo = endpoint(config, DYNAMODB_ENDPOINT).orElse(both);
        URI sqs = endpoint(config, SQS_ENDPOINT).orElse(both);
        String tablePrefix = config.get(TABLE_PREFIX, "worldflow_");
        if (!TABLE_CHARS.matcher(tablePrefix).matches()) {
            throw new ConfigurationException(TABLE_PREFIX
                    + " may hold only letters, digits, _ . and - (at most 200), was '" + tablePrefix + "'");
        }
        String queuePrefix = config.get(QUEUE_PREFIX, "worldflow-");
        if (!QUEUE_CHARS.matcher(queuePrefix).matches()) {
            throw new ConfigurationException(
                    QUEUE_PREFIX + " may hold only letters, digits, _ and - (at most 40), was '" + queuePrefix + "'");
        }
        String keyId = config.get(ACCESS_KEY_ID).orElse(null);
        String secret = config.get(SECRET_ACCESS_KEY).orElse(null);
        if (keyId != null && secret == null) {
            throw new ConfigurationException("missing configuration key " + SECRET_ACCESS_KEY + " (" + ACCESS_KEY_ID
                    + " is set; give both or neither)");
        }
        if (secret != null && keyId == null) {
            throw new ConfigurationException("missing configuration key " + ACCESS_KEY_ID + " (" + SECRET_ACCESS_KEY
                    + " is set; give both or neither)");
        }
        int attempts = config.getInt(MAX_ATTEMPTS, 8, 1, 30);
        Duration timeout = config.getDuration(API_TIMEOUT, Duration.ofSeconds(30), Duration.ofMillis(100), null);
        // SQS long polls wait 1 to 20 seconds
        Duration wakePoll =
                config.getDuration(WAKE_POLL, Duration.ofSeconds(20), Duration.ofSeconds(1), Duration.ofSeconds(20));
        return new AwsSettings(
                region,
                dynamo,
                sqs,
                tablePrefix,
                queuePrefix,
                config.getBoolean(CREATE_RESOURCES, true),
                keyId,
                secret,
                attempts,
                timeout,
                wakePoll,
                config.getBoolean(CONSUME_WAKES, true),
                config.getInt(INDEX_SHARDS, 1, 1, Shards.MAX));
    }

    private static Optional<URI> endpoint(WorldConfig config, String key) {
        Optional<String> text = config.get(key);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(text.get());
            if (uri.getScheme() == null
                    || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                    || uri.getHost() == null) {
                throw new ConfigurationException(
                        key + " must be an http(s) URL such as http://localhost:8000, was '" + text.get() + "'");
            }
            return Optional.of(uri);
        } catch (URISyntaxException e) {
            throw new ConfigurationException(
                    key + " must be an http(s) URL such as http://localhost:8000, was '" + text.get() + "'", e);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** The key that configured the DynamoDB endpoint, for error messages. */
    public String dynamoEndpointKey() {
        return dynamoEndpoint == null ? REGION : DYNAMODB_ENDPOINT + " (or " + ENDPOINT + ")";
    }

    public String sqsEndpointKey() {
        return sqsEndpoint == null ? REGION : SQS_ENDPOINT + " (or " + ENDPOINT + ")";
    }

    public String describe() {
        return "region " + region + ", DynamoDB " + (dynamoEndpoint == null ? "(AWS)" : dynamoEndpoint)
                + ", SQS " + (sqsEndpoint == null ? "(AWS)" : sqsEndpoint) + ", tables " + tablePrefix + "*, queues "
                + queuePrefix + "*" + (indexShards == 1 ? "" : ", " + indexShards + " index shards");
    }

    @Override
    public String toString() {
        return describe();
    }
}
