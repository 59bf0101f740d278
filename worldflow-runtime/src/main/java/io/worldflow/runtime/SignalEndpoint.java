package io.worldflow.runtime;

import com.fasterxml.jackson.core.JacksonException;
import io.worldflow.Actors;
import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.SerializationException;
import io.worldflow.runtime.internal.SignalTokens;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Delivers a signal sent to a signed URL made by {@link Worldflow#signalUrl}. It knows no web framework:
 * a server routes {@code POST …/signals/{runId}/{name}?token=…} here and writes back the response.
 *
 * <p>Checks come in this order, and each failure changes nothing: the token (genuine, for this run and
 * name: else 403; expired or revoked: 410), the body (at most {@link #maxBodyBytes()}: else 413; JSON or empty: else
 * 400; of the type the run's workflow declares for the signal, where it declares one: else 400 {@code bad_payload}),
 * the run (unknown: 404; finished: 409), and a single-use token's earlier use (409). Success is 202 with the signal's
 * id.
 */
public final class SignalEndpoint {

    /** The path under the server's root, as {@link Worldflow#signalUrl} writes it. */
    public static final String PATH = "/signals/{runId}/{name}";

    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    /** A response: its HTTP status and JSON body. */
    public record Response(int status, String json) {}

    private final Worldflow worldflow;
    private final SignalTokens tokens;
    private final InstantSource clock;
    private final int maxBodyBytes;

    SignalEndpoint(Worldflow worldflow, SignalTokens tokens, InstantSource clock, int maxBodyBytes) {
        this.worldflow = worldflow;
        this.tokens = tokens;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Handles one {@code POST}.
     *
     * @param body the request body, read here up to the limit (not closed)
     */
    public Response post(String runId, String name, String token, InputStream body) {
        Optional<SignalTokens.Grant> grant = tokens.verify(runId, name, token);
        if (grant.isEmpty()) {
            return error(
                    403,
                    "invalid_token",
                    "the signal token is missing, malformed, or not valid for this run " + "and signal name");
        }
        if (grant.get().expiredAt(clock.instant())) {
            return error(
                    410,
                    "expired_token",
                    "the signal token expired at " + grant.get().expiresAt());
        }
        String id = grant.get().id();
        if (worldflow.world().signals().revokedUrls(runId).stream()
                .anyMatch(r -> r.tokenId().equals(id))) {
            return error(410, "revoked_token", "this signal URL was revoked");
        }
        byte[] bytes;
        try {
            bytes = body == null ? new byte[0] : body.readNBytes(maxBodyBytes + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading a signal body for run '" + runId + "'", e);
        }
        if (bytes.length > maxBodyBytes) {
            return error(413, "body_too_large", "the signal body is larger than " + maxBodyBytes + " bytes");
        }
        Object payload;
        try {
            payload = isBlank(bytes) ? null : worldflow.codec().payloadMapper().readValue(bytes, Object.class);
        } catch (JacksonException e) {
            return error(400, "malformed_json", "the signal body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String key = grant.get().singleUse() ? "url:" + grant.get().mac() : null;
        try {
            boolean delivered;
            // the URL's token id names it in the log without letting anyone who reads the log use it
            try (var as = worldflow.actingAs(Actors.signalUrl(grant.get().id()))) {
                delivered = worldflow.signal(runId, name, payload, key);
            }
            if (!delivered) {
                return error(409, "token_used", "this signal URL was made for a single use and has been used");
            }
        } catch (RunNotFoundException e) {
            return error(404, "run_not_found", e.getMessage());
        } catch (RunFinishedException e) {
            return error(409, "run_finished", e.getMessage());
        } catch (SerializationException e) {
            // the body does not read as the type the workflow declares for this signal: nothing was stored
            return error(400, "bad_payload", e.getMessage());
        }
        Map<String, Object> ok = new LinkedHashMap<>();
        ok.put("runId", runId);
        ok.put("signal", name);
        ok.put("delivered", true);
        return new Response(202, json(ok));
    }

    private Response error(int status, String code, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        return new Response(status, json(body));
    }

    private String json(Object value) {
        try {
            return worldflow.codec().payloadMapper().writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }
}
