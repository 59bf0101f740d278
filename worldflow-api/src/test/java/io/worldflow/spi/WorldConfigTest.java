package io.worldflow.spi;

import io.worldflow.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorldConfigTest {

    private static final String KEY = "worldflow.worker.lease";

    private static WorldConfig with(String key, String value) {
        return WorldConfig.of(Map.of(key, value));
    }

    // ---------------------------------------------------------------- strings

    @Test
    void getStripsValuesAndTreatsBlankAsMissing() {
        WorldConfig c = WorldConfig.of(Map.of("worldflow.a", "  x  ", "worldflow.blank", "   "));

        assertThat(c.get("worldflow.a")).contains("x");
        assertThat(c.get("worldflow.blank")).isEmpty();
        assertThat(c.get("worldflow.missing")).isEmpty();
        assertThat(c.get("worldflow.blank", "fallback")).isEqualTo("fallback");
    }

    @Test
    void requireOfAMissingKeyNamesTheKey() {
        assertThatThrownBy(() -> WorldConfig.of(Map.of()).require("worldflow.postgres.url"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.postgres.url");
        assertThat(with("worldflow.postgres.url", "jdbc:x").require("worldflow.postgres.url"))
                .isEqualTo("jdbc:x");
    }

    @Test
    void theGivenMapIsCopied() {
        Map<String, String> source = new HashMap<>(Map.of("worldflow.a", "1"));
        WorldConfig c = WorldConfig.of(source);
        source.put("worldflow.a", "2");

        assertThat(c.get("worldflow.a")).contains("1");
    }

    @Test
    void withReturnsAChangedCopyAndNullRemovesTheKey() {
        WorldConfig c = with("worldflow.a", "1");

        WorldConfig changed = c.with("worldflow.b", "2").with("worldflow.a", null);

        assertThat(changed.asMap()).containsExactly(Map.entry("worldflow.b", "2"));
        assertThat(c.asMap()).containsExactly(Map.entry("worldflow.a", "1"));
    }

    @Test
    void asMapIsSortedByKey() {
        WorldConfig c = WorldConfig.of(Map.of("worldflow.c", "3", "worldflow.a", "1", "worldflow.b", "2"));

        assertThat(c.asMap().keySet()).containsExactly("worldflow.a", "worldflow.b", "worldflow.c");
    }

    // ---------------------------------------------------------------- durations

    @ParameterizedTest
    @CsvSource({
        "250ms, PT0.25S",
        "30s, PT30S",
        "5m, PT5M",
        "2h, PT2H",
        "1d, PT24H",
        "PT30S, PT30S",
        "pt1m30s, PT1M30S",
        "P2D, PT48H",
        "10 s, PT10S",
        "'  7m ', PT7M",
        "0s, PT0S",
        "5MS, PT0.005S"
    })
    void durationsAcceptUnitSuffixesAndIso8601(String text, String expected) {
        assertThat(with(KEY, text).getDuration(KEY, Duration.ofDays(9))).isEqualTo(Duration.parse(expected));
    }

    @Test
    void missingOrBlankDurationGivesTheFallback() {
        assertThat(WorldConfig.of(Map.of()).getDuration(KEY, Duration.ofSeconds(3)))
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(with(KEY, " ").getDuration(KEY, Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aNumberWithoutAUnitIsRefusedRatherThanGuessed() {
        assertThatThrownBy(() -> with(KEY, "10000").getDuration(KEY, Duration.ZERO))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(KEY + " must be a duration with its unit, such as 10000ms or 10000s, was '10000'");
        assertThatThrownBy(() -> with(KEY, " 45 ").getDuration(KEY, Duration.ZERO))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("45ms or 45s");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "soon",
                "5x",
                "ms",
                "-5s",
                "1.5s",
                "5 minutes",
                "PTxS",
                "P",
                "99999999999999999999s",
                "9999999999999999d",
                "1y",
                "P1Y"
            })
    void garbageDurationsFailNamingTheKeyAndTheValue(String text) {
        assertThatThrownBy(() -> with(KEY, text).getDuration(KEY, Duration.ZERO))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(KEY)
                .hasMessageContaining("'" + text + "'")
                .hasMessageContaining("duration")
                .as("the units it takes, days the longest")
                .hasMessageContaining("ms, s, m, h or d");
    }

    // ---------------------------------------------------------------- numbers and booleans

    @Test
    void getIntParsesWholeNumbersAndFallsBack() {
        assertThat(with("worldflow.worker.concurrency", " 12 ").getInt("worldflow.worker.concurrency", 1))
                .isEqualTo(12);
        assertThat(with("worldflow.n", "-3").getInt("worldflow.n", 1)).isEqualTo(-3);
        assertThat(WorldConfig.of(Map.of()).getInt("worldflow.n", 7)).isEqualTo(7);
    }

    @Test
    void aNumberOrDurationOutsideItsRangeIsRefusedNamingTheKeyTheRangeAndTheValue() {
        assertThat(with("worldflow.n", "30").getInt("worldflow.n", 1, 1, 30)).isEqualTo(30);
        assertThatThrownBy(() -> with("worldflow.n", "31").getInt("worldflow.n", 1, 1, 30))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("worldflow.n must be 1..30, was 31");
        assertThatThrownBy(() -> with("worldflow.n", "0").getInt("worldflow.n", 1, 1, 30))
                .hasMessage("worldflow.n must be 1..30, was 0");

        Duration second = Duration.ofSeconds(1);
        assertThat(with("worldflow.d", "20s").getDuration("worldflow.d", second, second, Duration.ofSeconds(20)))
                .isEqualTo(Duration.ofSeconds(20));
        assertThat(WorldConfig.of(Map.of()).getDuration("worldflow.d", second, Duration.ZERO, null))
                .isEqualTo(second);
        assertThatThrownBy(() ->
                        with("worldflow.d", "21s").getDuration("worldflow.d", second, second, Duration.ofSeconds(20)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("worldflow.d must be 1s..20s, was 21s");
        assertThatThrownBy(() ->
                        with("worldflow.d", "50ms").getDuration("worldflow.d", second, Duration.ofMillis(100), null))
                .hasMessage("worldflow.d must be at least 100ms, was 50ms");
        assertThatThrownBy(() -> with("worldflow.d", "PT-5S").getDuration("worldflow.d", second, Duration.ZERO, null))
                .hasMessage("worldflow.d must be at least 0s, was -5s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"many", "1.5", "12abc", "99999999999"})
    void getIntOfGarbageFailsNamingTheKeyAndTheValue(String text) {
        assertThatThrownBy(() -> with("worldflow.worker.concurrency", text).getInt("worldflow.worker.concurrency", 1))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.worker.concurrency")
                .hasMessageContaining("'" + text + "'")
                .hasCauseInstanceOf(NumberFormatException.class);
    }

    @ParameterizedTest
    @CsvSource({
        "true, true",
        "TRUE, true",
        "yes, true",
        "on, true",
        "1, true",
        "false, false",
        "No, false",
        "off, false",
        "0, false"
    })
    void getBooleanAcceptsTheUsualSpellings(String text, boolean expected) {
        assertThat(with("worldflow.flag", text).getBoolean("worldflow.flag", !expected))
                .isEqualTo(expected);
    }

    @Test
    void getBooleanOfGarbageFailsNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> with("worldflow.flag", "maybe").getBoolean("worldflow.flag", false))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.flag")
                .hasMessageContaining("'maybe'");
        assertThat(WorldConfig.of(Map.of()).getBoolean("worldflow.flag", true)).isTrue();
    }

    // ---------------------------------------------------------------- toString

    @Test
    void toStringMasksSecretsButShowsOtherValues() {
        WorldConfig c = WorldConfig.of(Map.of(
                "worldflow.postgres.url", "jdbc:postgresql://db/app",
                "worldflow.postgres.password", "hunter2",
                "worldflow.signal.secret", "s3cr3t-key",
                "worldflow.aws.session-token", "tok-123",
                "worldflow.aws.SECRET-KEY", "upper"));

        String shown = c.toString();

        assertThat(shown)
                .contains("worldflow.postgres.url=jdbc:postgresql://db/app")
                .contains("worldflow.postgres.password=****")
                .contains("worldflow.signal.secret=****")
                .contains("worldflow.aws.session-token=****")
                .doesNotContain("hunter2", "s3cr3t-key", "tok-123", "upper");
    }

    @Test
    void asMapStillHoldsTheRealSecrets() {
        assertThat(with("worldflow.postgres.password", "hunter2").asMap())
                .containsEntry("worldflow.postgres.password", "hunter2");
    }
}
