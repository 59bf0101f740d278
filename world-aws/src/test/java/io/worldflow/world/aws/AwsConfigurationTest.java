package io.worldflow.world.aws;

import io.worldflow.ConfigurationException;
import io.worldflow.WorldException;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;
import io.worldflow.world.aws.internal.AwsSettings;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AwsConfigurationTest {

    private final JsonCodec codec = new JsonCodec();

    private Throwable open(WorldConfig config) {
        try (var w = new AwsWorldProvider().create(new WorldContext(config, ManualClock.start(), codec.eventCodec()))) {
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private static WorldConfig good() {
        return Emulators.shared().config(Emulators.freshPrefix());
    }

    @Test
    void theProviderIsFoundByItsName() {
        assertThat(ServiceLoader.load(WorldProvider.class).stream()
                        .map(ServiceLoader.Provider::get)
                        .map(WorldProvider::name))
                .contains("aws");
        assertThat(new AwsWorldProvider().configKeys())
                .containsKeys(
                        AwsWorldProvider.REGION,
                        AwsWorldProvider.ENDPOINT,
                        AwsWorldProvider.TABLE_PREFIX,
                        AwsWorldProvider.QUEUE_PREFIX,
                        AwsWorldProvider.CREATE_RESOURCES);
    }

    @Test
    void aMissingRegionIsRefusedNamingTheKey() {
        WorldConfig config = WorldConfig.of(Map.of());

        assertThatThrownBy(() -> AwsSettingsAccess.from(config, Map.of()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.aws.region");
        assertThat(AwsSettingsAccess.from(config, Map.of("AWS_REGION", "eu-west-1"))
                        .region())
                .isEqualTo("eu-west-1");
    }

    @Test
    void badValuesAreRefusedNamingTheirKey() {
        Map<String, String> cases = Map.of(
                AwsWorldProvider.REGION, "Not A Region",
                AwsWorldProvider.DYNAMODB_ENDPOINT, "localhost:8000",
                AwsWorldProvider.SQS_ENDPOINT, "ftp://example.com",
                AwsWorldProvider.ENDPOINT, "http://exa mple",
                AwsWorldProvider.TABLE_PREFIX, "bad prefix!",
                AwsWorldProvider.QUEUE_PREFIX, "bad.queue.prefix",
                AwsWorldProvider.MAX_ATTEMPTS, "zero",
                AwsWorldProvider.WAKE_POLL, "60s",
                AwsWorldProvider.CREATE_RESOURCES, "perhaps",
                AwsWorldProvider.INDEX_SHARDS, "65");
        cases.forEach((key, value) -> assertThat(open(good().with(key, value)))
                .as("%s=%s", key, value)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(key));
        assertThat(open(good().with(AwsWorldProvider.INDEX_SHARDS, "0")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(AwsWorldProvider.INDEX_SHARDS);
    }

    @Test
    void halfOfTheStaticCredentialsIsRefused() {
        assertThat(open(good().with(AwsWorldProvider.SECRET_ACCESS_KEY, null)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(AwsWorldProvider.SECRET_ACCESS_KEY);
        assertThat(open(good().with(AwsWorldProvider.ACCESS_KEY_ID, null)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(AwsWorldProvider.ACCESS_KEY_ID);
    }

    @Test
    void anUnreachableDynamoDbEndpointFailsNamingTheKey() throws Exception {
        WorldConfig config = good().with(AwsWorldProvider.DYNAMODB_ENDPOINT, "http://127.0.0.1:" + Emulators.freePort())
                .with(AwsWorldProvider.MAX_ATTEMPTS, "1");

        assertThat(open(config))
                .isInstanceOf(WorldException.class)
                .hasMessageContaining(AwsWorldProvider.DYNAMODB_ENDPOINT)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isTrue());
    }

    @Test
    void anUnreachableSqsEndpointFailsNamingTheKey() throws Exception {
        WorldConfig config = good().with(AwsWorldProvider.SQS_ENDPOINT, "http://127.0.0.1:" + Emulators.freePort())
                .with(AwsWorldProvider.MAX_ATTEMPTS, "1");

        assertThat(open(config)).isInstanceOf(WorldException.class).hasMessageContaining(AwsWorldProvider.SQS_ENDPOINT);
    }

    @Test
    void missingTablesAreCreatedOnlyWhenAllowed() {
        String prefix = Emulators.freshPrefix();
        WorldConfig config = Emulators.shared().config(prefix).with(AwsWorldProvider.CREATE_RESOURCES, "false");

        assertThat(open(config))
                .isInstanceOf(WorldException.class)
                .hasMessageContaining(prefix + "runs")
                .hasMessageContaining(AwsWorldProvider.CREATE_RESOURCES)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isFalse());
        try (DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            assertThat(dynamo.listTablesPaginator().tableNames()).noneMatch(t -> t.startsWith(prefix));
            assertThat(open(Emulators.shared().config(prefix))).isNull();
            assertThat(dynamo.listTablesPaginator().tableNames())
                    .contains(prefix + "runs", prefix + "events", prefix + "signals");
            assertThat(open(config)).as("existing tables need no creating").isNull();
        }
    }

    /** Reaches the package-private settings parser with a chosen environment. */
    static final class AwsSettingsAccess {
        static AwsSettings from(WorldConfig config, Map<String, String> env) {
            return io.worldflow.world.aws.internal.AwsSettingsTestHook.from(config, env);
        }
    }
}
