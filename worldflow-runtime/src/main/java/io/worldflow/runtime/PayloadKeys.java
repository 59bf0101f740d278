package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys that encrypt payloads at rest (AES-256-GCM): the current one encrypts every payload written, each tagged
 * with its key's id; every key decrypts, so that keys can rotate: add a new one first, keep the old ones for as long as
 * payloads written under them are to be read. An application with a key service (AWS KMS, Vault) implements this
 * interface over it; {@link #fromConfig} reads keys from {@value #KEYS}.
 */
public interface PayloadKeys {

    /** {@code id:base64-key} entries separated by commas, the first the current one; each key 32 bytes. */
    String KEYS = "worldflow.encryption.keys";

    /**
     * What the keys encrypt: {@code payloads} (the default), every payload whole, and the secrets in it; or
     * {@code secrets}, only the values of the {@link io.worldflow.Secret}s in payloads, the rest in clear.
     */
    String SCOPE = "worldflow.encryption.scope";

    /** The id of the key that encrypts. */
    String current();

    /** The key of this id, or empty when there is none (removed, or never known here). */
    Optional<SecretKey> key(String id);

    /**
     * The keys {@value #KEYS} configures, or empty when it is not set.
     *
     * @throws ConfigurationException naming the key and the entry when one is malformed, a key is not 32 bytes of
     *                                base64, or an id is given twice
     */
    static Optional<PayloadKeys> fromConfig(WorldConfig config) {
        encryptsPayloads(config); // a scope misspelt is refused even without keys
        return config.get(KEYS).map(String::strip).filter(v -> !v.isEmpty()).map(PayloadKeys::parse);
    }

    /**
     * Whether {@value #SCOPE} asks for whole payloads to be encrypted (true unless it is {@code secrets}).
     *
     * @throws ConfigurationException when it is neither {@code payloads} nor {@code secrets}
     */
    static boolean encryptsPayloads(WorldConfig config) {
        String scope = config.get(SCOPE).map(String::strip).orElse("payloads");
        return switch (scope) {
            case "payloads" -> true;
            case "secrets" -> false;
            default ->
                throw new ConfigurationException(
                        SCOPE + " is '" + scope + "': it is payloads (every payload, the default) or secrets (only the"
                                + " values of Secrets)");
        };
    }

    /** Keys by id, the first entry's the current one ({@link #KEYS}'s format). */
    static PayloadKeys parse(String text) {
        Pattern id = Pattern.compile("[A-Za-z0-9._-]{1,40}");
        Map<String, SecretKey> keys = new LinkedHashMap<>();
        List<String> entries = new ArrayList<>(List.of(text.split(",", -1)));
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i).strip();
            int colon = entry.indexOf(':');
            String where = KEYS + ": entry " + (i + 1);
            if (colon < 0) {
                throw new ConfigurationException(where + " is not id:base64-key (entries are separated by commas)");
            }
            String name = entry.substring(0, colon).strip();
            if (!id.matcher(name).matches()) {
                throw new ConfigurationException(
                        where + ": the id '" + name + "' must be 1..40 letters, digits or . _ -");
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(entry.substring(colon + 1).strip());
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException(where + " ('" + name + "'): the key is not base64", e);
            }
            if (bytes.length != 32) {
                throw new ConfigurationException(
                        where + " ('" + name + "'): the key must be 32 bytes (AES-256), was " + bytes.length);
            }
            if (keys.put(name, new SecretKeySpec(bytes, "AES")) != null) {
                throw new ConfigurationException(where + ": the id '" + name + "' is given twice");
            }
        }
        String current = keys.keySet().iterator().next();
        Map<String, SecretKey> all = Map.copyOf(keys);
        return new PayloadKeys() {
            @Override
            public String current() {
                return current;
            }

            @Override
            public Optional<SecretKey> key(String keyId) {
                return Optional.ofNullable(all.get(keyId));
            }

            @Override
            public String toString() {
                return "PayloadKeys[current=" + current + ", ids=" + all.keySet() + "]";
            }
        };
    }
}
