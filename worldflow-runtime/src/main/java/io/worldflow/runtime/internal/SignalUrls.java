package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.Signals;
import io.worldflow.spi.WorldConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Signal URLs: {@code <root>/signals/<runId>/<name>?token=<token>}, the root from configuration or given by a
 * server that knows its own address, the token from {@link SignalTokens} (made on first use, so that a
 * process that never signs needs no secret).
 */
public final class SignalUrls {

    private static final Logger log = LoggerFactory.getLogger(SignalUrls.class);

    /** The longest time a signal URL may live. */
    public static final Duration MAX_TTL = Duration.ofDays(366);

    private final WorldConfig config;
    private final String rootKey;
    private final String secretKey;
    private final String previousKey;
    private volatile SignalTokens tokens;

    /**
     * Checks what is configured now, so that a bad secret or root URL stops the start, naming its key, rather than the
     * first signal URL asked for; nothing configured is fine until signal URLs are used.
     *
     * @param previousKey where secrets that still verify are configured, separated by commas
     * @throws ConfigurationException when a configured secret is too short, previous secrets are set without a
     *                                secret, or a configured root is not an http(s) URL
     */
    public SignalUrls(WorldConfig config, String rootKey, String secretKey, String previousKey) {
        this.config = config;
        this.rootKey = rootKey;
        this.secretKey = secretKey;
        this.previousKey = previousKey;
        if (config.get(secretKey).isPresent() || config.get(previousKey).isPresent()) {
            tokens();
        }
        if (config.get(rootKey).isPresent()) {
            configuredRoot();
        }
    }

    /** The configured root URL. */
    public URI configuredRoot() {
        String root = config.get(rootKey)
                .map(String::strip)
                .orElseThrow(
                        () -> new ConfigurationException(
                                rootKey
                                        + " must be set to the root URL of the server that receives signals, such as http://127.0.0.1:7070"));
        URI base;
        try {
            base = URI.create(root);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(rootKey + " is not a URL: " + root, e);
        }
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
            throw new ConfigurationException(rootKey + " must be an http or https URL, was " + root);
        }
        return base;
    }

    /** @throws IllegalArgumentException when {@code ttl} is not positive or longer than {@link #MAX_TTL} */
    public static void checkTtl(Duration ttl) {
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException(
                    "a signal URL's time to live must be positive and at most 366 days, was " + ttl);
        }
    }

    /**
     * A URL under {@code root} that delivers signal {@code name} to the run until {@code expiresAt}, logged with its
     * token's id and {@code issuedTo}, the actor who asked for it.
     */
    public URI make(URI root, String runId, String name, Instant expiresAt, boolean singleUse, String issuedTo) {
        String base = root.toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        String token = tokens().issue(runId, name, expiresAt, singleUse);
        // who was given which URL: the run's log names a URL only by its token's id when it is used
        log.info(
                "signal URL {} issued for signal '{}' of run {} to {}, until {}{}",
                SignalTokens.id(token),
                name,
                runId,
                issuedTo,
                expiresAt,
                singleUse ? ", single use" : "");
        return URI.create(base + "/signals/" + pathSegment(runId) + "/" + pathSegment(name) + "?token=" + token);
    }

    /**
     * The signer, made from the secrets on first use.
     *
     * @throws ConfigurationException when the secret is missing or too short, or a previous one is too short
     */
    public SignalTokens tokens() {
        SignalTokens t = tokens;
        if (t == null) {
            List<String> previous = config.get(previousKey)
                    .map(v -> Arrays.stream(v.split(",", -1)).map(String::strip).toList())
                    .orElse(List.of());
            t = new SignalTokens(config.get(secretKey).orElse(null), secretKey, previous, previousKey);
            tokens = t;
        }
        return t;
    }

    /**
     * The run's signal URL {@code url} revoked, as {@code actor}: its token's id kept with the run in the world, so
     * that every process refuses it from now on ({@link io.worldflow.spi.Signals#revokeUrl}).
     *
     * @return the token's id
     * @throws IllegalArgumentException when {@code url} is not a signal URL signed with this application's secrets
     */
    public String revoke(Signals signals, URI url, String actor) {
        Objects.requireNonNull(url, "url");
        String[] segments =
                url.getRawPath() == null ? new String[0] : url.getRawPath().split("/", -1);
        String token = null;
        for (String param :
                url.getRawQuery() == null ? new String[0] : url.getRawQuery().split("&")) {
            if (param.startsWith("token=")) {
                token = URLDecoder.decode(param.substring("token=".length()), StandardCharsets.UTF_8);
            }
        }
        int n = segments.length;
        if (n < 3 || !segments[n - 3].equals("signals") || token == null) {
            throw new IllegalArgumentException("not a signal URL (…/signals/<run id>/<name>?token=…): " + url);
        }
        String runId = URLDecoder.decode(segments[n - 2], StandardCharsets.UTF_8);
        String name = URLDecoder.decode(segments[n - 1], StandardCharsets.UTF_8);
        SignalTokens.Grant grant = tokens().verify(runId, name, token)
                .orElseThrow(() -> new IllegalArgumentException(
                        "not a signal URL signed with this application's secrets, for run '" + runId + "' and signal '"
                                + name + "'"));
        signals.revokeUrl(runId, grant.id(), actor);
        return grant.id();
    }

    private static String pathSegment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
