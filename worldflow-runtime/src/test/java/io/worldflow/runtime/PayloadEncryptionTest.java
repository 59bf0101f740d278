package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.Payload;
import io.worldflow.PayloadKeyException;
import io.worldflow.SerializationException;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PayloadEncryptionTest {

    static final String K1 = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
    static final String K2 = Base64.getEncoder().encodeToString("fedcba9876543210fedcba9876543210".getBytes());

    record Card(String holder, String number) {}

    static JsonCodec codec(String keys) {
        return new JsonCodec().encrypting(PayloadKeys.parse(keys));
    }

    @Test
    void anEncryptedPayloadHoldsNothingInClearAndReadsBackWithItsType() {
        JsonCodec codec = codec("k1:" + K1);
        Card card = new Card("Ana", "4242-4242-4242-4242");

        Payload p = codec.encode(card, "input");

        assertThat(p.json()).doesNotContain("4242").doesNotContain("Ana").contains("wf:enc:v1:k1:");
        assertThat(p.type()).isEqualTo(Card.class.getName());
        assertThat((Object) codec.decode(p, null, "input")).isEqualTo(card);
        assertThat(codec.decode(p, Card.class, "input")).isEqualTo(card);
        assertThat(codec.reveal(p, "input").json())
                .isEqualTo("{\"holder\":\"Ana\",\"number\":\"4242-4242-4242-4242\"}");
        assertThat(codec.encode(card, "input").json())
                .as("a fresh IV each time")
                .isNotEqualTo(p.json());
        assertThat(codec.encode(null, "nothing")).isEqualTo(Payload.NULL);
    }

    @Test
    void noTwoPayloadsShareAnIvAcrossThreads() throws Exception {
        JsonCodec codec = codec("k1:" + K1);
        java.util.Set<String> ivs = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 5_000; i++) {
                    String json = codec.encode("same value", "x").json();
                    String body = json.substring(json.lastIndexOf(':') + 1, json.length() - 1);
                    ivs.add(body.substring(0, 16)); // the first 12 bytes, base64url
                    assertThat(codec.decode(new Payload(json, "java.lang.String"), String.class, "x"))
                            .isEqualTo("same value");
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(ivs).hasSize(8 * 5_000);
    }

    @Test
    void encodeAndReadGivesWhatReplayReadsAndStoresItSealed() {
        JsonCodec codec = codec("k1:" + K1);

        JsonCodec.Recorded r = codec.encodeAndRead(new Card("Ana", "4242"), "result");

        assertThat(r.value()).isEqualTo(new Card("Ana", "4242"));
        assertThat(r.payload().json()).doesNotContain("4242");
        assertThat((Object) codec.decode(r.payload(), null, "result")).isEqualTo(r.value());
        assertThat(codec.encodeAndRead(null, "nothing")).isEqualTo(new JsonCodec.Recorded(Payload.NULL, null));
    }

    @Test
    void keysRotateTheNewestEncryptsAndEveryKeyDecryptsAndClearPayloadsStillRead() {
        Payload underK1 = codec("k1:" + K1).encode("secret", "old");
        Payload clear = new JsonCodec().encode("written before", "older");
        JsonCodec rotated = codec("k2:" + K2 + ", k1:" + K1);

        Payload underK2 = rotated.encode("secret", "new");

        assertThat(underK2.json()).contains("wf:enc:v1:k2:");
        assertThat(rotated.decode(underK1, String.class, "old")).isEqualTo("secret");
        assertThat(rotated.decode(underK2, String.class, "new")).isEqualTo("secret");
        assertThat(rotated.decode(clear, String.class, "older")).isEqualTo("written before");
    }

    @Test
    void aPayloadUnderAKeyNotHereIsAKeyErrorNamingTheKey() {
        Payload underK1 = codec("k1:" + K1).encode("secret", "a step result");

        assertThatThrownBy(() -> codec("k2:" + K2).decode(underK1, String.class, "result of step 'charge'"))
                .isInstanceOf(PayloadKeyException.class)
                .hasMessageContaining("result of step 'charge'")
                .hasMessageContaining("key 'k1'")
                .satisfies(e -> assertThat(((PayloadKeyException) e).keyId()).isEqualTo("k1"));
        assertThatThrownBy(() -> new JsonCodec().decode(underK1, String.class, "input"))
                .isInstanceOf(PayloadKeyException.class)
                .hasMessageContaining("no payload keys are configured")
                .hasMessageContaining(PayloadKeys.KEYS);
    }

    @Test
    void anAlteredPayloadOrOneWhoseTypeWasSwappedDoesNotDecrypt() {
        JsonCodec codec = codec("k1:" + K1);
        Payload p = codec.encode(new Card("Ana", "4242"), "input");
        String json = p.json();
        char flipped = json.charAt(json.length() - 6) == 'A' ? 'B' : 'A';
        Payload altered = new Payload(
                json.substring(0, json.length() - 6) + flipped + json.substring(json.length() - 5), p.type());
        Payload swapped = new Payload(json, "java.util.Map");

        for (Payload bad : List.of(altered, swapped)) {
            assertThatThrownBy(() -> codec.decode(bad, null, "input"))
                    .isInstanceOf(SerializationException.class)
                    .isNotInstanceOf(PayloadKeyException.class)
                    .hasMessageContaining("does not decrypt");
        }
        // the id kept, its key changed: the likelier cause is named first
        JsonCodec otherKeyUnderTheId = codec("k1:" + K1.replace(K1.charAt(0), K1.charAt(0) == 'A' ? 'B' : 'A'));
        assertThatThrownBy(() -> otherKeyUnderTheId.decode(p, null, "input"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("key 'k1'")
                .hasMessageContaining("not the one it was encrypted with");
    }

    @Test
    void aSealedPayloadReadsBackWhateverCaseAWorldWritesItsEscapeIn() {
        JsonCodec codec = codec("k1:" + K1);
        Payload p = codec.encode("secret", "input");

        Payload upper = new Payload(p.json().replace("\\u001b", "\\u001B"), p.type());

        assertThat(upper.json()).isNotEqualTo(p.json());
        assertThat(codec.decode(upper, String.class, "input")).isEqualTo("secret");
        assertThat(new JsonCodec().decode(new JsonCodec().encode("wf:enc:v1:k1:AAAA", "x"), String.class, "x"))
                .as("a string without the leading control character is a value like any other")
                .isEqualTo("wf:enc:v1:k1:AAAA");
    }

    @Test
    void badKeyConfigurationIsRefusedNamingTheEntryAndNeverTheKey() {
        Map<String, String> cases = Map.of(
                "k1-" + K1, "entry 1 is not id:base64-key",
                "k1:" + K1 + ",k1:" + K2, "the id 'k1' is given twice",
                "k1:" + K1 + ",k2:not base64!", "entry 2 ('k2'): the key is not base64",
                "k1:" + Base64.getEncoder().encodeToString(new byte[16]), "must be 32 bytes",
                "k 1:" + K1, "must be 1..40 letters");
        cases.forEach((value, message) -> assertThatThrownBy(
                        () -> PayloadKeys.fromConfig(WorldConfig.of(Map.of(PayloadKeys.KEYS, value))))
                .as(value)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(PayloadKeys.KEYS)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(K1).doesNotContain(K2)));
        assertThat(PayloadKeys.fromConfig(WorldConfig.of(Map.of()))).isEmpty();
        assertThat(PayloadKeys.fromConfig(WorldConfig.of(Map.of(PayloadKeys.KEYS, "k2:" + K2 + ",k1:" + K1)))
                        .orElseThrow()
                        .current())
                .isEqualTo("k2");
    }

    /** A key provider's key that AES-GCM cannot use is refused when the codec is made, not by the first run. */
    @Test
    void aProvidersKeyThatCannotSealIsRefusedWhenTheCodecIsMade() {
        PayloadKeys unusable = new PayloadKeys() {
            @Override
            public String current() {
                return "kms-7";
            }

            @Override
            public Optional<SecretKey> key(String keyId) {
                // 5 bytes: no AES key size
                return Optional.of(new SecretKeySpec(new byte[5], "AES"));
            }
        };
        assertThatThrownBy(() -> new JsonCodec().encrypting(unusable))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'kms-7'")
                .hasMessageContaining("cannot seal and open");
    }
}
