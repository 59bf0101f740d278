package io.worldflow.format;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key of a keyed hash chain ({@link LogChain}): with it, each link is an HMAC-SHA256 under a key that only the
 * application holds, so that someone who can write to the database, but does not have the key, cannot make links that
 * match records they changed. Every process of a world uses the same key ({@value #KEY}).
 */
public final class ChainKey {

    /** The key, as base64 of at least {@value #MIN_BYTES} random bytes ({@code openssl rand -base64 32}). */
    public static final String KEY = "worldflow.audit.key";

    /**
     * Whether a check with the key takes only keyed links (true, the default): a record without a link, or with a link
     * anyone can make, is then a break. False lets records written before the key was configured pass as they did,
     * which also lets someone without the key strip or remake the links of a whole run unseen.
     */
    public static final String REQUIRED = "worldflow.audit.key-required";

    /** The shortest key accepted: the MAC's own strength. */
    public static final int MIN_BYTES = 32;

    /** An initialized MAC to clone: a lookup and an initialization cost several times a record's MAC. */
    private final Mac prototype;

    private final boolean required;

    private ChainKey(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            this.prototype = mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
        this.required = true;
    }

    private ChainKey(ChainKey key, boolean required) {
        this.prototype = key.prototype;
        this.required = required;
    }

    /**
     * This key, for checks that let records without a keyed link pass as records written before the key was
     * configured did (see {@value #REQUIRED}).
     */
    public ChainKey lenient() {
        return new ChainKey(this, false);
    }

    /** Whether a check with this key takes keyed links only ({@value #REQUIRED}). */
    public boolean required() {
        return required;
    }

    /**
     * A key of these bytes.
     *
     * @throws IllegalArgumentException when it is shorter than {@value #MIN_BYTES} bytes
     */
    public static ChainKey of(byte[] key) {
        if (key == null || key.length < MIN_BYTES) {
            throw new IllegalArgumentException("a chain key is at least " + MIN_BYTES + " bytes");
        }
        return new ChainKey(key.clone());
    }

    /**
     * The key {@value #KEY} configures, or empty when it is not set; lenient when {@value #REQUIRED} is false.
     *
     * @throws ConfigurationException when it is not base64 of at least {@value #MIN_BYTES} bytes
     */
    public static Optional<ChainKey> fromConfig(WorldConfig config) {
        Optional<String> text = config.get(KEY).map(String::strip).filter(v -> !v.isEmpty());
        // read whether or not a key is set, so that a bad value is reported and not only once a key is added
        boolean required = config.getBoolean(REQUIRED, true);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.get());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(KEY + " is not base64: " + e.getMessage(), e);
        }
        if (bytes.length < MIN_BYTES) {
            throw new ConfigurationException(KEY + " is " + bytes.length + " bytes; it must be at least " + MIN_BYTES
                    + " random bytes, as base64");
        }
        ChainKey key = new ChainKey(bytes);
        return Optional.of(required ? key : key.lenient());
    }

    /** The HMAC of the parts, in order. */
    byte[] mac(byte[]... parts) {
        Mac mac;
        try {
            mac = (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("HmacSHA256 cannot be cloned here", e);
        }
        for (byte[] p : parts) {
            mac.update(p);
        }
        return mac.doFinal();
    }

    @Override
    public String toString() {
        return "ChainKey[hidden]";
    }
}
