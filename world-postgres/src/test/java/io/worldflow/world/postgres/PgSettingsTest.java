package io.worldflow.world.postgres;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PgSettingsTest {

    private static final String URL = "jdbc:postgresql://db.example.com:5432/app";

    private static WorldConfig config(String... keyValues) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return WorldConfig.of(values);
    }

    @Test
    void defaultsAreValid() {
        PgSettings s = PgSettings.from(config(PostgresWorldProvider.URL, URL));

        assertThat(s.schema()).isEqualTo("worldflow");
        assertThat(s.prefix()).isEqualTo("wf_");
        assertThat(s.poolSize()).isEqualTo(10);
        assertThat(s.startupTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.channel()).isEqualTo("worldflow.wf_due");
    }

    @Test
    void aMissingUrlIsAConfigurationErrorNamingTheKey() {
        assertThatThrownBy(() -> PgSettings.from(config()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.postgres.url");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "postgres://localhost/app",
                "jdbc:mysql://localhost/app",
                "localhost:5432",
                "jdbc:postgres://localhost/app"
            })
    void anUrlThatIsNotJdbcPostgresqlIsRejected(String url) {
        assertThatThrownBy(() -> PgSettings.from(config(PostgresWorldProvider.URL, url)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.postgres.url")
                .hasMessageContaining("jdbc:postgresql:");
    }

    @Test
    void aMalformedPostgresqlUrlIsRejected() {
        assertThatThrownBy(() ->
                        PgSettings.from(config(PostgresWorldProvider.URL, "jdbc:postgresql://localhost:notaport/app")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.postgres.url");
    }

    @Test
    void thePasswordNeverAppearsInMessagesOrDescriptions() {
        String url = URL + "?user=ana&password=hunter2&ssl=true";
        PgSettings s =
                PgSettings.from(config(PostgresWorldProvider.URL, url, PostgresWorldProvider.PASSWORD, "alsosecret"));

        assertThat(s.maskedUrl()).isEqualTo(URL + "?user=ana&password=****&ssl=true");
        assertThat(s.describe())
                .doesNotContain("hunter2")
                .doesNotContain("alsosecret")
                .contains("user ana");
        assertThat(s.toString()).doesNotContain("hunter2").doesNotContain("alsosecret");
        assertThatThrownBy(
                        () -> PgSettings.from(config(PostgresWorldProvider.URL, "jdbc:mysql://h/db?password=hunter2")))
                .hasMessageNotContaining("hunter2");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Worldflow",
                "1abc",
                "wf-1",
                "wf.x",
                "a b",
                "wf\"; drop table x; --",
                "pg_catalog",
                "information_schema",
                "ünïcode"
            })
    void anUnsafeSchemaIsRejected(String schema) {
        assertThatThrownBy(() ->
                        PgSettings.from(config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.SCHEMA, schema)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(PostgresWorldProvider.SCHEMA);
    }

    @ParameterizedTest
    @ValueSource(strings = {"WF_", "wf-", "9x", "wf$", "x'y", "abcdefghijklmnopqrstuvwxyzabcdefg"})
    void anUnsafeTablePrefixIsRejected(String prefix) {
        assertThatThrownBy(() -> PgSettings.from(
                        config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.TABLE_PREFIX, prefix)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(PostgresWorldProvider.TABLE_PREFIX);
    }

    @Test
    void upperCaseNamesGetAHint() {
        assertThatThrownBy(() ->
                        PgSettings.from(config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.SCHEMA, "Orders")))
                .hasMessageContaining("use lower case: 'orders'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "501", "many"})
    void aPoolSizeOutOfRangeIsRejected(String size) {
        assertThatThrownBy(() ->
                        PgSettings.from(config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.POOL_SIZE, size)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(PostgresWorldProvider.POOL_SIZE);
    }

    @Test
    void theStartupTimeoutIsADuration() {
        assertThat(PgSettings.from(
                                config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.STARTUP_TIMEOUT, "1500ms"))
                        .startupTimeout())
                .isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> PgSettings.from(
                        config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.STARTUP_TIMEOUT, "soon")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(PostgresWorldProvider.STARTUP_TIMEOUT);
    }

    @Test
    void theLockKeyAndChannelDependOnSchemaAndPrefix() {
        PgSettings a = PgSettings.from(config(PostgresWorldProvider.URL, URL));
        PgSettings b = PgSettings.from(config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.SCHEMA, "other"));
        PgSettings c =
                PgSettings.from(config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.TABLE_PREFIX, "x_"));

        assertThat(a.migrationLockKey())
                .isEqualTo(
                        PgSettings.from(config(PostgresWorldProvider.URL, URL)).migrationLockKey());
        assertThat(a.migrationLockKey()).isNotEqualTo(b.migrationLockKey()).isNotEqualTo(c.migrationLockKey());
        assertThat(b.channel()).isEqualTo("other.wf_due");
        assertThat(c.channel()).isEqualTo("worldflow.x_due");
    }

    @Test
    void aLongSchemaGetsAHashedChannelWithinPostgresLimit() {
        String schema = "s".repeat(63);
        PgSettings s = PgSettings.from(config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.SCHEMA, schema));

        assertThat(s.channel()).hasSizeLessThanOrEqualTo(63).startsWith("wf_due_");
        assertThat(s.channel())
                .isNotEqualTo(PgSettings.from(
                                config(PostgresWorldProvider.URL, URL, PostgresWorldProvider.SCHEMA, "t".repeat(63)))
                        .channel());
    }
}
