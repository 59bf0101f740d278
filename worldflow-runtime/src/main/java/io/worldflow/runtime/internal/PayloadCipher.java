package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.PayloadKeyException;
import io.worldflow.SerializationException;
import io.worldflow.runtime.PayloadKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Payload JSON sealed with AES-256-GCM, as a JSON string that any world stores like any other payload:
 * ESC, {@code wf:enc:v1:<key id>:<base64url of iv, ciphertext and tag>} (see {@link #PREFIX}). The payload's type descriptor stays in clear
 * beside it and is bound to it (the cipher's associated data), so that neither can be swapped for another's. Each
 * IV is a random 64-bit prefix, drawn anew every 2^32 payloads, and a 32-bit counter (the deterministic construction
 * of NIST SP 800-38D with a random fixed field): it never repeats within a process, and two processes draw the same
 * prefix with negligible chance. Drawing 96 random bits per payload, and a new {@link Cipher} each time, cost several
 * times the encryption itself; ciphers are kept for reuse instead.
 */
public final class PayloadCipher {

    private static final Logger log = LoggerFactory.getLogger(PayloadCipher.class);

    /** What is sealed: the kinds have their own marks and associated data, so that one never opens as the other. */
    public enum Kind {
        /** A whole payload: {@code wf:enc:v1:}. */
        PAYLOAD("enc", "worldflow-payload:v1|"),
        /** The value of an {@link io.worldflow.Secret} inside a payload: {@code wf:sec:v1:}. */
        SECRET("sec", "worldflow-secret:v1|");

        /**
         * The start of a sealed value's JSON: a string that begins with the control character ESC, written as a JSON
         * escape, which no text a person writes begins with. A world may store the JSON as it reads it back, with the
         * escape's hex digit in upper case: both are taken.
         */
        private final String prefix;

        private final String aad;

        Kind(String mark, String aad) {
            this.prefix = "\"\\u001bwf:" + mark + ":v1:";
            this.aad = aad;
        }

        /** The start of a sealed value as a JSON string's text, once parsed: ESC, then the mark. */
        public String textPrefix() {
            return "\u001b" + prefix.substring(7);
        }
    }

    /** Both kinds' prefixes have this length, so a key id is found the same way in either. */
    private static final int PREFIX_LENGTH = Kind.PAYLOAD.prefix.length();

    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int TAG_BYTES = TAG_BITS / 8;
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    /** Past this many payload types, associated data is built per call rather than kept. */
    private static final int MAX_AAD_CACHED = 256;

    private final PayloadKeys keys;
    private final Kind kind;
    private final SecureRandom random = new SecureRandom();
    private final Queue<Cipher> idle = new ConcurrentLinkedQueue<>();
    private final AtomicLong issued = new AtomicLong();
    private volatile Epoch epoch;
    /** The key sealing last used, kept while it stays the current one: a key provider is asked once per key id. */
    private volatile Sealing sealing;
    /** The associated data of each payload type seen, built once (types are few: the code's own classes). */
    private final Map<String, byte[]> aads = new ConcurrentHashMap<>();

    /** The IVs' prefix for counter values {@code number << 32} up to the next epoch's. */
    private record Epoch(long number, byte[] prefix) {}

    /** A key id, its key, and the text every value sealed with it starts with. */
    private record Sealing(String id, SecretKey key, String start) {}

    public PayloadCipher(PayloadKeys keys, Kind kind) {
        this.keys = keys;
        this.kind = kind;
        this.epoch = new Epoch(0, prefix());
        if (keys.key(keys.current()).isEmpty()) {
            throw new ConfigurationException("the current payload key '" + keys.current() + "' is not among the keys");
        }
        // one round trip now: a key the provider cannot use is a configuration error reported here, not by the first
        // run to store a payload, and the provider's one-time setup is done before any run waits for it (the cipher
        // made for it is kept for the first payload)
        try {
            open(seal("null", null), null, "a check of the current key");
        } catch (RuntimeException e) {
            throw new ConfigurationException(
                    "the current payload key '" + keys.current() + "' cannot seal and open a payload with"
                            + " AES-GCM: " + e.getMessage(),
                    e);
        }
        if (kind == Kind.PAYLOAD) {
            log.info("payloads are encrypted at rest under key '{}'", keys.current());
        }
    }

    /** Whether the stored JSON is a sealed payload. */
    public static boolean isSealed(String json) {
        return isSealed(json, Kind.PAYLOAD);
    }

    /** Whether the stored JSON is a value sealed as {@code kind}. */
    public static boolean isSealed(String json, Kind kind) {
        return json != null && json.regionMatches(true, 0, kind.prefix, 0, PREFIX_LENGTH);
    }

    /** The id of the key a sealed value was sealed with. */
    public static String keyId(String sealed) {
        int end = sealed.indexOf(':', PREFIX_LENGTH);
        return end < 0 ? "" : sealed.substring(PREFIX_LENGTH, end);
    }

    /** {@code json} sealed under the current key. */
    public String seal(String json, String type) {
        Sealing with = sealing();
        byte[] clear = json.getBytes(StandardCharsets.UTF_8);
        // the IV, then the ciphertext and its tag written after it by the cipher: one array, encoded once
        byte[] out = new byte[IV_BYTES + clear.length + TAG_BYTES];
        nextIv(out);
        Cipher c = take();
        try {
            c.init(Cipher.ENCRYPT_MODE, with.key(), new GCMParameterSpec(TAG_BITS, out, 0, IV_BYTES));
            c.updateAAD(aad(type));
            c.doFinal(clear, 0, clear.length, out, IV_BYTES);
            return with.start() + BASE64.encodeToString(out) + "\"";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused a key or an IV of its own", e);
        } finally {
            idle.offer(c);
        }
    }

    private Sealing sealing() {
        String id = keys.current();
        Sealing last = sealing;
        if (last != null && last.id().equals(id)) {
            return last;
        }
        Sealing now = new Sealing(id, keys.key(id).orElseThrow(), kind.prefix + id + ":");
        sealing = now;
        return now;
    }

    /** Writes the next IV into the first {@value #IV_BYTES} bytes of {@code out}. */
    private void nextIv(byte[] out) {
        while (true) {
            long n = issued.getAndIncrement();
            Epoch e = epoch;
            if ((n >>> 32) > e.number()) {
                e = advance(n >>> 32);
            }
            if ((n >>> 32) == e.number()) {
                byte[] prefix = e.prefix();
                System.arraycopy(prefix, 0, out, 0, prefix.length);
                for (int i = 0; i < 4; i++) {
                    out[prefix.length + i] = (byte) (n >>> (24 - 8 * i));
                }
                return;
            }
            // a counter value of an epoch already left behind: its prefix is gone, take another
        }
    }

    private synchronized Epoch advance(long number) {
        if (epoch.number() < number) {
            epoch = new Epoch(number, prefix());
        }
        return epoch;
    }

    private byte[] prefix() {
        byte[] p = new byte[IV_BYTES - 4];
        random.nextBytes(p);
        return p;
    }

    private Cipher take() {
        Cipher c = idle.poll();
        if (c != null) {
            return c;
        }
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /**
     * The clear JSON of a sealed payload.
     *
     * @throws PayloadKeyException    when its key is not among the keys
     * @throws SerializationException when it was altered, or is not a sealed payload of this form
     */
    public String open(String sealed, String type, String what) {
        String id = keyId(sealed);
        Sealing last = sealing;
        // the key sealing uses while it is still the current one; any other is asked for, so that a key the provider
        // no longer holds is refused
        SecretKey key = last != null && last.id().equals(id) && id.equals(keys.current())
                ? last.key()
                : keys.key(id)
                        .orElseThrow(() -> new PayloadKeyException(
                                what + " is encrypted under key '" + id + "', which is not among the payload keys ("
                                        + PayloadKeys.KEYS + ")",
                                id));
        try {
            byte[] all = Base64.getUrlDecoder()
                    .decode(sealed.substring(PREFIX_LENGTH + id.length() + 1, sealed.length() - 1));
            Cipher c = take();
            try {
                c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
                c.updateAAD(aad(type));
                return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
            } finally {
                idle.offer(c);
            }
        } catch (GeneralSecurityException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new SerializationException(
                    what + " is encrypted under key '" + id + "' but does not decrypt with it: the key configured"
                            + " under that id is not the one it was encrypted with, or the payload or its type"
                            + " descriptor was altered",
                    e);
        }
    }

    private byte[] aad(String type) {
        String t = type == null ? "" : type;
        byte[] known = aads.get(t);
        if (known != null) {
            return known;
        }
        byte[] built = (kind.aad + t).getBytes(StandardCharsets.UTF_8);
        if (aads.size() < MAX_AAD_CACHED) {
            aads.put(t, built);
        }
        return built;
    }
}
