package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signal tokens: {@code <expiry epoch seconds>.<o|m>.<nonce>.<HMAC-SHA256>} where the MAC (base64url) covers the
 * run id, the signal name, the expiry, whether the token is single use ({@code o}) or may be used many times
 * ({@code m}), and a random nonce drawn for each token, so that two URLs issued alike (the same run, name, expiry and
 * use) are two URLs: each used, revoked and named in the run's log on its own. Tokens issued without a nonce
 * ({@code <expiry>.<o|m>.<MAC>}) still verify. Checked in constant time. The current secret signs; previous ones still verify, so that a
 * secret can be rotated without breaking the URLs already given out: add the new one, keep the old one among the
 * previous until its URLs have expired, then drop it.
 */
public final class SignalTokens {

    /** The shortest secret accepted: 32 bytes, the MAC's own strength. */
    public static final int MIN_SECRET_BYTES = 32;

    /** Random bytes in each token: 72 bits, so that no two tokens issued alike are the same. */
    private static final int NONCE_BYTES = 9;

    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;
    /** Every key that verifies: the current one first, then the previous ones. */
    private final List<SecretKeySpec> verifying;

    public SignalTokens(String secret, String configKey) {
        this(secret, configKey, List.of(), null);
    }

    /**
     * @param previous    secrets that verify tokens but sign none (each at least {@link #MIN_SECRET_BYTES} bytes)
     * @param previousKey where {@code previous} are configured, for error messages
     */
    public SignalTokens(String secret, String configKey, List<String> previous, String previousKey) {
        if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
            throw new ConfigurationException(configKey + " must be set to a secret of at least " + MIN_SECRET_BYTES
                    + " bytes to sign signal URLs" + (secret == null ? "" : " (the value given is too short)"));
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        List<SecretKeySpec> keys = new ArrayList<>(List.of(key));
        for (int i = 0; i < previous.size(); i++) {
            byte[] bytes = previous.get(i).getBytes(StandardCharsets.UTF_8);
            if (bytes.length < MIN_SECRET_BYTES) {
                throw new ConfigurationException(previousKey + ": secret " + (i + 1) + " is shorter than "
                        + MIN_SECRET_BYTES + " bytes (secrets are separated by commas)");
            }
            keys.add(new SecretKeySpec(bytes, "HmacSHA256"));
        }
        this.verifying = List.copyOf(keys);
    }

    /** A token valid until {@code expiresAt}, for one run and signal name, unlike any other issued. */
    public String issue(String runId, String name, Instant expiresAt, boolean singleUse) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        String head = expiresAt.getEpochSecond() + "." + (singleUse ? "o" : "m") + "." + BASE64.encodeToString(nonce);
        return head + "." + BASE64.encodeToString(mac(key, runId, name, head));
    }

    /** The id of a token this class issued ({@link Grant#id}), read without checking it. */
    public static String id(String token) {
        return idOf(token.substring(token.lastIndexOf('.') + 1));
    }

    /** A token's id from its MAC: the first 12 characters (72 bits). */
    private static String idOf(String mac) {
        return mac.substring(0, Math.min(12, mac.length()));
    }

    /** What a token grants. */
    public record Grant(Instant expiresAt, boolean singleUse, String mac) {

        /**
         * The token's id: the first 12 characters of its MAC (72 bits), which name the URL in a run's log and in logs
         * without letting anyone use it (that needs the whole MAC).
         */
        public String id() {
            return idOf(mac);
        }

        /** Whether it has expired at {@code now}. */
        public boolean expiredAt(Instant now) {
            return !now.isBefore(expiresAt);
        }
    }

    /**
     * The grant of a genuine token for this run and name, or empty for anything else: malformed, forged,
     * altered, or made for another run or name. Expiry is the caller's check, so it can say so.
     */
    public Optional<Grant> verify(String runId, String name, String token) {
        if (token == null || token.length() > 200 || runId == null || name == null) {
            return Optional.empty();
        }
        String[] parts = token.split("\\.", -1);
        // three parts: a token issued before tokens had a nonce
        if ((parts.length != 3 && parts.length != 4)
                || !(parts[1].equals("o") || parts[1].equals("m"))
                || !parts[0].matches("\\d{1,12}")
                || (parts.length == 4 && !parts[2].matches("[A-Za-z0-9_-]{1,32}"))) {
            return Optional.empty();
        }
        String macText = parts[parts.length - 1];
        byte[] given;
        try {
            given = Base64.getUrlDecoder().decode(macText);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        String head = token.substring(0, token.length() - macText.length() - 1);
        // every key is tried, whichever matches, so that the time taken says nothing of which one did
        boolean genuine = false;
        for (SecretKeySpec k : verifying) {
            genuine |= MessageDigest.isEqual(mac(k, runId, name, head), given);
        }
        if (!genuine) {
            return Optional.empty();
        }
        return Optional.of(new Grant(Instant.ofEpochSecond(Long.parseLong(parts[0])), parts[1].equals("o"), macText));
    }

    private static byte[] mac(SecretKeySpec key, String runId, String name, String head) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            // lengths first, so no two (run id, name) pairs give the same message
            String message = "worldflow-signal:v1\n" + runId.length() + ":" + runId + "\n" + name.length() + ":" + name
                    + "\n" + head;
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
