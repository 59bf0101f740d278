package io.worldflow.world.aws.internal;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Duration;
import java.util.List;

/**
 * The two SDK clients, on the JDK's URL connection HTTP client, retrying throttling and 5xx answers with
 * exponential backoff and jitter ({@code standard} retry strategy, {@link AwsSettings#maxAttempts()} attempts,
 * without the retry quota that would stop retrying under sustained throttling).
 */
public record Clients(DynamoDbClient dynamo, SqsClient sqs) implements AutoCloseable {

    public static Clients create(AwsSettings settings, List<ExecutionInterceptor> interceptors) {
        AwsCredentialsProvider credentials = settings.accessKeyId() != null
                ? StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(settings.accessKeyId(), settings.secretAccessKey()))
                : DefaultCredentialsProvider.builder().build();
        Region region = Region.of(settings.region());
        var dynamo = DynamoDbClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClient(http())
                .overrideConfiguration(override(settings, interceptors, settings.apiTimeout(), Duration.ofSeconds(10)));
        if (settings.dynamoEndpoint() != null) {
            dynamo.endpointOverride(settings.dynamoEndpoint());
        }
        // an SQS call may be a long poll of up to wake-poll: its time limits are that much longer
        var sqs = SqsClient.builder()
                .region(region)
                .credentialsProvider(credentials)
                .httpClient(http())
                .overrideConfiguration(override(
                        settings,
                        interceptors,
                        settings.apiTimeout().plus(settings.wakePoll()),
                        Duration.ofSeconds(10).plus(settings.wakePoll())));
        if (settings.sqsEndpoint() != null) {
            sqs.endpointOverride(settings.sqsEndpoint());
        }
        return new Clients(dynamo.build(), sqs.build());
    }

    private static ClientOverrideConfiguration override(
            AwsSettings settings,
            List<ExecutionInterceptor> interceptors,
            Duration callTimeout,
            Duration attemptTimeout) {
        ClientOverrideConfiguration.Builder override = ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(settings.maxAttempts())
                        .circuitBreakerEnabled(false)
                        .build())
                .apiCallTimeout(callTimeout)
                .apiCallAttemptTimeout(attemptTimeout);
        interceptors.forEach(override::addExecutionInterceptor);
        return override.build();
    }

    private static SdkHttpClient http() {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(3))
                .socketTimeout(Duration.ofSeconds(25))
                .build();
    }

    @Override
    public void close() {
        try {
            dynamo.close();
        } finally {
            sqs.close();
        }
    }
}
