package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SignalTokensTest {

    private static final String SECRET = "a-secret-of-at-least-thirty-two-bytes!";
    private static final Instant EXPIRY = Instant.parse("2026-11-22T12:00:00Z");

    private final SignalTokens tokens = new SignalTokens(SECRET, "worldflow.signal.secret");

    @Test
    void aTokenVerifiesForItsRunAndNameWithItsExpiryAndUse() {
        String many = tokens.issue("order-1", "approval", EXPIRY, false);
        String once = tokens.issue("order-1", "approval", EXPIRY, true);

        assertThat(tokens.verify("order-1", "approval", many)).hasValueSatisfying(g -> {
            assertThat(g.expiresAt()).isEqualTo(EXPIRY);
            assertThat(g.singleUse()).isFalse();
            assertThat(g.expiredAt(EXPIRY.minusSeconds(1))).isFalse();
            assertThat(g.expiredAt(EXPIRY)).isTrue();
        });
        assertThat(tokens.verify("order-1", "approval", once))
                .hasValueSatisfying(g -> assertThat(g.singleUse()).isTrue());
    }

    @Test
    void aTokenForAnotherRunOrNameOrAlteredOrForgedIsRefused() {
        String token = tokens.issue("order-1", "approval", EXPIRY, false);
        String[] parts = token.split("\\.");

        assertThat(tokens.verify("order-2", "approval", token)).isEmpty();
        assertThat(tokens.verify("order-1", "address", token)).isEmpty();
        String rest = token.substring(parts[0].length() + 3);
        assertThat(tokens.verify("order-1", "approval", (Long.parseLong(parts[0]) + 3600) + ".m." + rest))
                .as("a later expiry")
                .isEmpty();
        assertThat(tokens.verify("order-1", "approval", parts[0] + ".o." + rest))
                .as("made single use")
                .isEmpty();
        assertThat(tokens.verify("order-1", "approval", parts[0] + ".m." + parts[3]))
                .as("its nonce left out")
                .isEmpty();
        assertThat(tokens.verify("order-1", "approval", parts[0] + ".m.AAAAAAAAAAAA." + parts[3]))
                .as("another nonce")
                .isEmpty();
        // the MAC's last full character changed (its very last one carries padding bits a decoder may ignore)
        char changed = token.charAt(token.length() - 2) == 'A' ? 'B' : 'A';
        assertThat(tokens.verify(
                        "order-1",
                        "approval",
                        token.substring(0, token.length() - 2) + changed + token.charAt(token.length() - 1)))
                .as("its MAC altered")
                .isEmpty();
        assertThat(new SignalTokens(SECRET + "x", "k").verify("order-1", "approval", token))
                .as("signed with another secret")
                .isEmpty();
        for (String bad :
                new String[] {null, "", "x", "1.m", "1.x.abc", "abc.m.abc", "1.m.!!!", "1.m.abc.d", "9".repeat(300)}) {
            assertThat(tokens.verify("order-1", "approval", bad))
                    .as("token %s", bad)
                    .isEmpty();
        }
    }

    @Test
    void tokensIssuedAlikeAreDistinctAndEachVerifiesWithItsOwnId() {
        String first = tokens.issue("order-1", "approval", EXPIRY, true);
        String second = tokens.issue("order-1", "approval", EXPIRY, true);

        assertThat(first).isNotEqualTo(second);
        String firstId =
                tokens.verify("order-1", "approval", first).orElseThrow().id();
        String secondId =
                tokens.verify("order-1", "approval", second).orElseThrow().id();
        assertThat(firstId).isNotEqualTo(secondId);
    }

    @Test
    void aTokenIssuedBeforeTokensHadANonceStillVerifies() {
        // issued for order-1's approval, expiring at EXPIRY, by the form without a nonce
        String many = "1795348800.m.QgkbFB-GD5g-XXq8xMsJDxqs37INcS0OmWE4OcfS4Xw";
        String once = "1795348800.o.MkAbJUe3CeAGEELYAraDBgKibdzX7lvSFgFGligWA5o";

        assertThat(tokens.verify("order-1", "approval", many)).hasValueSatisfying(g -> {
            assertThat(g.expiresAt()).isEqualTo(EXPIRY);
            assertThat(g.singleUse()).isFalse();
            assertThat(g.id()).isEqualTo("QgkbFB-GD5g-");
        });
        assertThat(tokens.verify("order-1", "approval", once))
                .hasValueSatisfying(g -> assertThat(g.singleUse()).isTrue());
        assertThat(tokens.verify("order-2", "approval", many)).isEmpty();
    }

    @Test
    void runIdAndNameCannotBeShiftedIntoEachOther() {
        String token = tokens.issue("a", "bc", EXPIRY, false);

        assertThat(tokens.verify("ab", "c", token)).isEmpty();
    }

    @Test
    void aMissingOrShortSecretIsAConfigurationErrorNamingTheKey() {
        assertThatThrownBy(() -> new SignalTokens(null, "worldflow.signal.secret"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.signal.secret");
        assertThatThrownBy(() -> new SignalTokens("short", "worldflow.signal.secret"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("32 bytes")
                .hasMessageContaining("too short");
    }
}
