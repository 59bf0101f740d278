package io.worldflow.runtime.internal;

import io.worldflow.PayloadKeyException;
import io.worldflow.SerializationException;
import io.worldflow.runtime.PayloadKeys;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Payload JSON sealed with AES-256-GCM, as a JSON string that any world stores like any other payload:
 * ESC, {@code wf:enc:v1:<key id>:<base64url of iv, ciphertext and tag>} (see {@link #PREFIX}). The payload's type descriptor stays in clear
 * beside it and is bound to it (the cipher's associated data), so that neither can be swapped for another's. A fresh
 * 96-bit random IV per payload.
 */
public final class PayloadCipher {

    /**
     * The start of a sealed payload's JSON: a string that begins with the control character ESC, written as a JSON
     * escape, which no text a person writes begins with. A world may store the JSON as it reads it back, with the
     * escape's hex digit in upper case: both are taken.
     */
    private static final String PREFIX = "\"\\u001bwf:enc:v1:";

    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final PayloadKeys keys;
    private final SecureRandom random = new SecureRandom();

    public PayloadCipher(PayloadKeys keys) {
        this.keys = keys;
        if (keys.key(keys.current()).isEmpty()) {
            throw new io.worldflow.ConfigurationException(
                    "the current payload key '" + keys.current() + "' is not among the keys");
        }
    }

    /** Whether the stored JSON is a sealed payload. */
    public static boolean isSealed(String json) {
        return json != null && json.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    /** The id of the key a sealed payload was sealed with. */
    public static String keyId(String sealed) {
        int end = sealed.indexOf(':', PREFIX.length());
        return end < 0 ? "" : sealed.substring(PREFIX.length(), end);
    }

    /** {@code json} sealed under the current key. */
    public String seal(String json, String type) {
        String id = keys.current();
        SecretKey key = keys.key(id).orElseThrow();
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            c.updateAAD(aad(type));
            byte[] sealed = c.doFinal(json.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(iv.length + sealed.length)
                    .put(iv)
                    .put(sealed)
                    .array();
            return PREFIX + id + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(out) + "\"";
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
        SecretKey key = keys.key(id)
                .orElseThrow(() -> new PayloadKeyException(
                        what + " is encrypted under key '" + id + "', which is not among the payload keys ("
                                + PayloadKeys.KEYS + ")",
                        id));
        try {
            byte[] all = Base64.getUrlDecoder()
                    .decode(sealed.substring(PREFIX.length() + id.length() + 1, sealed.length() - 1));
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
            c.updateAAD(aad(type));
            return new String(c.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new SerializationException(
                    what + " is encrypted under key '" + id + "' but does not decrypt: it was altered, or its type"
                            + " descriptor was",
                    e);
        }
    }

    private static byte[] aad(String type) {
        return ("worldflow-payload:v1|" + (type == null ? "" : type)).getBytes(StandardCharsets.UTF_8);
    }
}
