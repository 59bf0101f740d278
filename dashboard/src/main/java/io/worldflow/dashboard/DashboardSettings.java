package io.worldflow.dashboard;

import io.worldflow.ConfigurationException;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.spi.WorldConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How the dashboard serves.
 *
 * @param host         the interface it binds: {@code 127.0.0.1} unless configured otherwise
 * @param port         its port; 0 picks a free one
 * @param token        the admin's token ({@link Role#ADMIN}), which the login link carries; a request presents a token
 *                     as a bearer header or in the login cookie
 * @param generated    whether {@code token} was made up at start because none was configured
 * @param publicReads  whether reads (lists, runs, timelines, live updates) are open without a token;
 *                     actions always need one
 * @param maxBodyBytes the largest request body taken
 * @param tokens       more tokens, each with its name and role ({@value #TOKENS}); {@code token} is the admin's,
 *                     named {@value #ADMIN_NAME}
 * @param worldMeters  whether the dashboard adds meters of the whole world (runs by status, the lag of the oldest due
 *                     pending run) to its Worldflow's meter registry ({@value #WORLD_METERS}): what a dashboard that
 *                     runs beside the workers reports for them, as no worker can see the whole world
 */
public record DashboardSettings(
        String host,
        int port,
        String token,
        boolean generated,
        boolean publicReads,
        int maxBodyBytes,
        List<DashboardToken> tokens,
        boolean worldMeters) {

    public static final String HOST = "worldflow.dashboard.host";
    public static final String PORT = "worldflow.dashboard.port";
    public static final String TOKEN = "worldflow.dashboard.token";
    public static final String PUBLIC_READS = "worldflow.dashboard.read-only-public";
    public static final String MAX_BODY = "worldflow.dashboard.max-body";
    /** Named tokens with their roles: {@code name:role:token} entries separated by commas. */
    public static final String TOKENS = "worldflow.dashboard.tokens";
    /**
     * Whether to add meters of the whole world to the meter registry: off unless configured, but on by default in the
     * standalone server.
     */
    public static final String WORLD_METERS = "worldflow.dashboard.world-meters";
    /** The name of the caller who presents {@link #token}. */
    public static final String ADMIN_NAME = "admin";

    /**
     * Every key of {@code worldflow.dashboard.}: these, and {@code worldflow.dashboard.enabled}, which the Spring Boot
     * starter reads to start a dashboard at all.
     */
    public static final List<String> KEYS =
            List.of(HOST, PORT, TOKEN, PUBLIC_READS, MAX_BODY, TOKENS, WORLD_METERS, "worldflow.dashboard.enabled");

    /** The keys with dashes, so that their {@code WORLDFLOW_*} environment variables are found. */
    public static final List<String> DASHED_KEYS = List.of(PUBLIC_READS, MAX_BODY, WORLD_METERS);

    private static final int MIN_TOKEN_LENGTH = DashboardToken.MIN_LENGTH;
    private static final Logger LOG = LoggerFactory.getLogger(DashboardSettings.class);

    public DashboardSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(token, "token");
        tokens = List.copyOf(tokens);
        Set<String> names = new HashSet<>(Set.of(ADMIN_NAME));
        Set<String> values = new HashSet<>(Set.of(token));
        for (DashboardToken t : tokens) {
            if (!names.add(t.name())) {
                throw new ConfigurationException(TOKENS + ": the name '" + t.name() + "' is given twice"
                        + (t.name().equals(ADMIN_NAME) ? " (it is the name of " + TOKEN + ")" : ""));
            }
            if (!values.add(t.token())) {
                throw new ConfigurationException(
                        TOKENS + ": the token of '" + t.name() + "' is another's too; each token must be its own");
            }
        }
        if (port < 0 || port > 65535) {
            throw new ConfigurationException(PORT + " must be 0..65535, was " + port);
        }
        if (token.length() < MIN_TOKEN_LENGTH || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new ConfigurationException(
                    TOKEN + " must be at least " + MIN_TOKEN_LENGTH + " printable characters without spaces");
        }
        if (maxBodyBytes < 1024 || maxBodyBytes > 16 * 1024 * 1024) {
            throw new ConfigurationException(MAX_BODY + " must be 1024..16777216 bytes, was " + maxBodyBytes);
        }
    }

    /** Settings without meters of the whole world. */
    public DashboardSettings(
            String host,
            int port,
            String token,
            boolean generated,
            boolean publicReads,
            int maxBodyBytes,
            List<DashboardToken> tokens) {
        this(host, port, token, generated, publicReads, maxBodyBytes, tokens, false);
    }

    /** From configuration; without {@value #TOKEN}, a random token is made for this process. */
    public static DashboardSettings fromConfig(WorldConfig config) {
        // a misspelt key would leave its setting at the default without a word
        WorldflowConfig.unknownKeys(config, "worldflow.dashboard.", KEYS).forEach(LOG::warn);
        String token = config.get(TOKEN).map(String::strip).orElse(null);
        boolean generated = token == null || token.isEmpty();
        if (generated) {
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            token = HexFormat.of().formatHex(random);
        }
        return new DashboardSettings(
                config.get(HOST, "127.0.0.1").strip(),
                config.getInt(PORT, 7070),
                token,
                generated,
                config.getBoolean(PUBLIC_READS, false),
                config.getInt(MAX_BODY, 64 * 1024),
                config.get(TOKENS).map(DashboardSettings::parseTokens).orElse(List.of()),
                config.getBoolean(WORLD_METERS, false));
    }

    /** {@value #TOKENS}: {@code name:role:token} entries separated by commas. */
    static List<DashboardToken> parseTokens(String text) {
        List<DashboardToken> out = new ArrayList<>();
        String[] entries = text.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            if (entry.isEmpty() && entries.length == 1) {
                break;
            }
            String[] parts = entry.split(":", 3);
            if (parts.length != 3) {
                throw new ConfigurationException(TOKENS + ": entry " + (i + 1) + " is not name:role:token"
                        + " (entries are separated by commas)");
            }
            out.add(new DashboardToken(parts[0].strip(), Role.parse(parts[1], TOKENS), parts[2].strip()));
        }
        return out;
    }

    /** The same settings on another port. */
    public DashboardSettings withPort(int value) {
        return new DashboardSettings(host, value, token, generated, publicReads, maxBodyBytes, tokens, worldMeters);
    }

    /** The same settings with these named tokens besides the admin's. */
    public DashboardSettings withTokens(List<DashboardToken> value) {
        return new DashboardSettings(host, port, token, generated, publicReads, maxBodyBytes, value, worldMeters);
    }

    /** The same settings, adding meters of the whole world to the meter registry or not. */
    public DashboardSettings withWorldMeters(boolean value) {
        return new DashboardSettings(host, port, token, generated, publicReads, maxBodyBytes, tokens, value);
    }

    @Override
    public String toString() {
        return "DashboardSettings[host=" + host + ", port=" + port + ", token=****, publicReads=" + publicReads
                + ", maxBodyBytes=" + maxBodyBytes + ", tokens=" + tokens + ", worldMeters=" + worldMeters + "]";
    }
}
