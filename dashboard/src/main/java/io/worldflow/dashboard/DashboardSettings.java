package io.worldflow.dashboard;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * How the dashboard serves.
 *
 * @param host         the interface it binds: {@code 127.0.0.1} unless configured otherwise
 * @param port         its port; 0 picks a free one
 * @param token        what every API request and the UI must present (bearer header or login cookie)
 * @param generated    whether {@code token} was made up at start because none was configured
 * @param publicReads  whether reads (lists, runs, timelines, live updates) are open without the token;
 *                     actions always need it
 * @param maxBodyBytes the largest request body taken
 */
public record DashboardSettings(
        String host, int port, String token, boolean generated, boolean publicReads, int maxBodyBytes) {

    public static final String HOST = "worldflow.dashboard.host";
    public static final String PORT = "worldflow.dashboard.port";
    public static final String TOKEN = "worldflow.dashboard.token";
    public static final String PUBLIC_READS = "worldflow.dashboard.read-only-public";
    public static final String MAX_BODY = "worldflow.dashboard.max-body";

    /** The keys with dashes, so that their {@code WORLDFLOW_*} environment variables are found. */
    public static final List<String> DASHED_KEYS = List.of(PUBLIC_READS, MAX_BODY);

    private static final int MIN_TOKEN_LENGTH = 16;

    public DashboardSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(token, "token");
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

    /** From configuration; without {@value #TOKEN}, a random token is made for this process. */
    public static DashboardSettings fromConfig(WorldConfig config) {
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
                config.getInt(MAX_BODY, 64 * 1024));
    }

    /** The same settings on another port. */
    public DashboardSettings withPort(int value) {
        return new DashboardSettings(host, value, token, generated, publicReads, maxBodyBytes);
    }

    @Override
    public String toString() {
        return "DashboardSettings[host=" + host + ", port=" + port + ", token=****, publicReads=" + publicReads
                + ", maxBodyBytes=" + maxBodyBytes + "]";
    }
}
