package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SignalUrlsTest {

    private static final String SECRET = "a-secret-of-at-least-thirty-two-bytes!";

    private static SignalUrls urls(Map<String, String> config) {
        return new SignalUrls(
                WorldConfig.of(config),
                "worldflow.signal.url",
                "worldflow.signal.secret",
                "worldflow.signal.previous-secrets");
    }

    @Test
    void aUrlNamesTheRunAndSignalEncodedUnderTheRootWithAVerifiableToken() {
        SignalUrls urls = urls(Map.of("worldflow.signal.secret", SECRET));
        Instant expires = Instant.parse("2026-11-22T12:00:00Z");

        URI url =
                urls.make(URI.create("https://example.test/hooks/"), "order 7/é", "approve?", expires, true, "ops:ana");

        assertThat(url.getRawPath()).isEqualTo("/hooks/signals/order%207%2F%C3%A9/approve%3F");
        String token = url.getRawQuery().substring("token=".length());
        assertThat(urls.tokens().verify("order 7/é", "approve?", token)).hasValueSatisfying(g -> {
            assertThat(g.expiresAt()).isEqualTo(expires);
            assertThat(g.singleUse()).isTrue();
        });
    }

    @Test
    void aRotatedSecretSignsWhileThePreviousOnesStillVerifyAndADroppedOneNoLonger() {
        String older = "an-older-secret-of-thirty-two-bytes-or-more";
        Instant expires = Instant.parse("2026-11-22T12:00:00Z");
        String byOlder = urls(Map.of("worldflow.signal.secret", older)).tokens().issue("r", "s", expires, false);
        String byPrevious =
                urls(Map.of("worldflow.signal.secret", SECRET)).tokens().issue("r", "s", expires, false);
        String newest = "the-newest-secret-of-thirty-two-bytes-or-more";

        SignalUrls rotated = urls(
                Map.of("worldflow.signal.secret", newest, "worldflow.signal.previous-secrets", SECRET + " , " + older));
        SignalUrls dropped =
                urls(Map.of("worldflow.signal.secret", newest, "worldflow.signal.previous-secrets", SECRET));

        String fresh = rotated.tokens().issue("r", "s", expires, false);
        assertThat(rotated.tokens().verify("r", "s", byOlder)).isPresent();
        assertThat(rotated.tokens().verify("r", "s", byPrevious)).isPresent();
        assertThat(rotated.tokens().verify("r", "s", fresh)).isPresent();
        assertThat(urls(Map.of("worldflow.signal.secret", newest)).tokens().verify("r", "s", fresh))
                .as("the newest secret signs")
                .isPresent();
        assertThat(urls(Map.of("worldflow.signal.secret", SECRET)).tokens().verify("r", "s", fresh))
                .as("a previous secret never signs")
                .isEmpty();
        assertThat(dropped.tokens().verify("r", "s", byOlder))
                .as("a secret dropped from the list")
                .isEmpty();
        assertThat(rotated.tokens().verify("r", "other", byOlder)).isEmpty();
        assertThatThrownBy(() -> urls(Map.of(
                                "worldflow.signal.secret",
                                newest,
                                "worldflow.signal.previous-secrets",
                                SECRET + ",too-short"))
                        .tokens())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.previous-secrets")
                .hasMessageContaining("secret 2 is shorter than 32 bytes")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("too-short"));
    }

    @Test
    void theConfiguredRootMustBeAnHttpUrlAndIsNamedWhenWrong() {
        assertThat(urls(Map.of("worldflow.signal.url", " http://127.0.0.1:7070 "))
                        .configuredRoot())
                .isEqualTo(URI.create("http://127.0.0.1:7070"));
        assertThatThrownBy(() -> urls(Map.of()).configuredRoot())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.url must be set");
        assertThatThrownBy(() -> urls(Map.of("worldflow.signal.url", "ftp://host")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("http or https");
        assertThatThrownBy(() -> urls(Map.of("worldflow.signal.url", "http://bad host")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("is not a URL");
        assertThatThrownBy(() -> urls(Map.of()).tokens())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.secret");
    }

    @Test
    void aBadSecretOrRootIsRefusedAsTheyAreConfiguredNotAtTheirFirstUse() {
        assertThatThrownBy(() -> urls(Map.of("worldflow.signal.secret", "short")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.secret")
                .hasMessageContaining("32");
        assertThatThrownBy(() -> urls(Map.of("worldflow.signal.previous-secrets", SECRET)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.secret");
        assertThatThrownBy(() -> urls(Map.of("worldflow.signal.secret", SECRET, "worldflow.signal.url", "ftp://x")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.url");
        // nothing configured is fine until signal URLs are asked for
        urls(Map.of());
    }

    @Test
    void aLifetimeMustBePositiveAndAtMostAYear() {
        SignalUrls.checkTtl(Duration.ofDays(366));
        assertThatThrownBy(() -> SignalUrls.checkTtl(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignalUrls.checkTtl(Duration.ofDays(367)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
