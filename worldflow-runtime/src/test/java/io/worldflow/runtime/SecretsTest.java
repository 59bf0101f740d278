package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.Payload;
import io.worldflow.PayloadKeyException;
import io.worldflow.Secret;
import io.worldflow.SerializationException;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.worldflow.runtime.PayloadEncryptionTest.K1;
import static io.worldflow.runtime.PayloadEncryptionTest.K2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretsTest {

    record Payment(String holder, Secret<String> card, List<Secret<Integer>> pins) {}

    private static final Payment PAYMENT =
            new Payment("Ana", Secret.of("4242-4242-4242-4242"), List.of(Secret.of(1234), Secret.of(9876)));

    private static JsonCodec secretsOnly(String keys) {
        return new JsonCodec().sealingSecrets(PayloadKeys.parse(keys));
    }

    @Test
    void aSecretIsStoredEncryptedWhileTheRestOfThePayloadStaysInClearAndReadsBack() {
        JsonCodec codec = secretsOnly("k1:" + K1);

        Payload p = codec.encode(PAYMENT, "input");

        assertThat(p.json()).contains("\"holder\":\"Ana\"", "wf:sec:v1:k1:").doesNotContain("4242", "1234", "9876");
        assertThat((Object) codec.decode(p, null, "input")).isEqualTo(PAYMENT);
        assertThat(codec.decode(p, Payment.class, "input").card().value()).isEqualTo("4242-4242-4242-4242");
    }

    @Test
    void aSecretOnItsOwnKeepsItsValueTypeAndWholePayloadEncryptionSealsItTwice() {
        JsonCodec whole = new JsonCodec().encrypting(PayloadKeys.parse("k1:" + K1));

        Payload p = whole.encode(Secret.of(42L), "result");

        assertThat(p.type()).isEqualTo("io.worldflow.Secret<java.lang.Long>");
        assertThat(p.json()).contains("wf:enc:v1:k1:");
        assertThat(whole.reveal(p, "result").json()).contains("wf:sec:v1:k1:").doesNotContain("42\"");
        Object back = whole.decode(p, null, "result");
        assertThat(back).isEqualTo(Secret.of(42L));
        assertThat(((Secret<?>) back).value()).isInstanceOf(Long.class);
    }

    @Test
    void aSecretShowsNothingOfItselfInTextAndIsShownMaskedUnlessAsked() {
        JsonCodec codec = secretsOnly("k1:" + K1);
        Payload p = codec.encode(PAYMENT, "input");

        assertThat(PAYMENT.toString()).doesNotContain("4242").contains(Secret.MASK);
        assertThat(codec.reveal(p, "input", false).json())
                .isEqualTo("{\"holder\":\"Ana\",\"card\":\"•••\",\"pins\":[\"•••\",\"•••\"]}");
        assertThat(codec.reveal(p, "input", true).json())
                .isEqualTo("{\"holder\":\"Ana\",\"card\":\"4242-4242-4242-4242\",\"pins\":[1234,9876]}");
    }

    @Test
    void withoutKeysASecretIsRefusedNeverWrittenInClear() {
        assertThatThrownBy(() -> new JsonCodec().encode(PAYMENT, "input of run r1"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("input of run r1")
                .hasMessageContaining("never stored in clear")
                .hasMessageContaining(PayloadKeys.KEYS);
    }

    @Test
    void aSecretUnderAKeyNotHeldIsAMissingKeyNamingItAndAlteredOneIsRefused() {
        Payload p = secretsOnly("k1:" + K1).encode(PAYMENT, "input");

        assertThatThrownBy(() -> secretsOnly("k2:" + K2).decode(p, Payment.class, "input of run r1"))
                .isInstanceOfSatisfying(
                        PayloadKeyException.class, e -> assertThat(e.keyId()).isEqualTo("k1"))
                .hasMessageContaining("input of run r1")
                .hasMessageContaining("'k1'");
        assertThatThrownBy(() -> new JsonCodec().decode(p, Payment.class, "input"))
                .isInstanceOf(PayloadKeyException.class);
        // rotated: the new key first, the old one still decrypts
        assertThat(secretsOnly("k2:" + K2 + ",k1:" + K1).decode(p, Payment.class, "input"))
                .isEqualTo(PAYMENT);
        int at = p.json().indexOf("wf:sec:v1:k1:") + 20;
        char was = p.json().charAt(at);
        String altered =
                p.json().substring(0, at) + (was == 'A' ? 'B' : 'A') + p.json().substring(at + 1);
        assertThatThrownBy(() -> secretsOnly("k1:" + K1).decode(new Payload(altered, p.type()), Payment.class, "x"))
                .isInstanceOf(SerializationException.class);
        assertThat(new JsonCodec().reveal(p, "input", false).json())
                .as("masked needs no key")
                .contains(Secret.MASK);
    }

    @Test
    void aPlainValueInASecretsPlaceReadsAsItsValue() {
        Payment typed = new JsonCodec()
                .decode(new Payload("{\"holder\":\"Bo\",\"card\":\"1111\",\"pins\":[7]}", null), Payment.class, "x");

        assertThat(typed.card().value()).isEqualTo("1111");
        assertThat(typed.pins()).containsExactly(Secret.of(7));
    }

    @Test
    void theScopeIsPayloadsOrSecretsAndAnythingElseIsAClearError() {
        assertThat(PayloadKeys.encryptsPayloads(WorldConfig.of(Map.of()))).isTrue();
        assertThat(PayloadKeys.encryptsPayloads(WorldConfig.of(Map.of(PayloadKeys.SCOPE, "secrets"))))
                .isFalse();
        assertThatThrownBy(() -> PayloadKeys.fromConfig(WorldConfig.of(Map.of(PayloadKeys.SCOPE, "secret"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(PayloadKeys.SCOPE)
                .hasMessageContaining("'secret'");
    }
}
