package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signal tokens: {@code <expiry epoch seconds>.<o|m>.<HMAC-SHA256>} where the MAC (base64url) covers the
 * run id, the signal name, the expiry and whether the token is single use ({@code o}) or may be used many
 * times ({@code m}). Checked in constant time.
 */
public final class SignalTokens {

    /** The shortest secret accepted: 32 bytes, the MAC's own strength. */
    public static final int MIN_SECRET_BYTES = 32;

    private final SecretKeySpec key;

    public SignalTokens(String secret, String configKey) {
        if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
            throw new ConfigurationException(configKey + " must be set to a secret of at least " + MIN_SECRET_BYTES
                    + " bytes to sign signal URLs" + (secret == null ? "" : " (the value given is too short)"));
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** A token valid until {@code expiresAt}, for one run and signal name. */
    public String issue(String runId, String name, Instant expiresAt, boolean singleUse) {
        String head = expiresAt.getEpochSecond() + "." + (singleUse ? "o" : "m");
        return head + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(runId, name, head));
    }

    /** What a token grants. */
    public record Grant(Instant expiresAt, boolean singleUse, String mac) {
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
        if (parts.length != 3 || !(parts[1].equals("o") || parts[1].equals("m")) || !parts[0].matches("\\d{1,12}")) {
            return Optional.empty();
        }
        byte[] given;
        try {
            given = Base64.getUrlDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        byte[] expected = mac(runId, name, parts[0] + "." + parts[1]);
        if (!MessageDigest.isEqual(expected, given)) {
            return Optional.empty();
        }
        return Optional.of(new Grant(Instant.ofEpochSecond(Long.parseLong(parts[0])), parts[1].equals("o"), parts[2]));
    }

    private byte[] mac(String runId, String name, String head) {
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
