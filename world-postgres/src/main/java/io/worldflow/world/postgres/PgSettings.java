package io.worldflow.world.postgres;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;
import org.postgresql.Driver;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The Postgres world's configuration, validated.
 *
 * @param url            a {@code jdbc:postgresql:} URL
 * @param user           the user, or null when the URL names it
 * @param password       the password, or null
 * @param schema         the schema of the tables, a plain lower-case identifier
 * @param prefix         put before every table name, a plain lower-case identifier
 * @param poolSize       connections in the pool
 * @param startupTimeout how long opening keeps trying to reach the database
 */
record PgSettings(
        String url, String user, String password, String schema, String prefix, int poolSize, Duration startupTimeout) {

    static final String DEFAULT_SCHEMA = "worldflow";
    static final String DEFAULT_PREFIX = "wf_";
    static final int DEFAULT_POOL_SIZE = 10;
    static final int MAX_POOL_SIZE = 500;
    static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(60);
    static final int MAX_SCHEMA_LENGTH = 63;
    static final int MAX_PREFIX_LENGTH = 32;

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern PASSWORD_IN_URL = Pattern.compile("(?i)(password=)[^&;]*");
    private static final int MAX_CHANNEL_LENGTH = 63;

    PgSettings {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
    }

    /** Everything, for opening the world. */
    static PgSettings from(WorldConfig config) {
        String url = url(config);
        return new PgSettings(
                url,
                config.get(PostgresWorldProvider.USER).orElse(null),
                config.get(PostgresWorldProvider.PASSWORD).orElse(null),
                schema(config),
                prefix(config),
                config.getInt(PostgresWorldProvider.POOL_SIZE, DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
                config.getDuration(
                        PostgresWorldProvider.STARTUP_TIMEOUT, DEFAULT_STARTUP_TIMEOUT, Duration.ZERO, null));
    }

    /** Only the names of things, for printing the schema without a database. */
    static PgSettings namesOnly(WorldConfig config) {
        return new PgSettings(
                null, null, null, schema(config), prefix(config), DEFAULT_POOL_SIZE, DEFAULT_STARTUP_TIMEOUT);
    }

    /** The URL with any password in it masked, for messages and logs. */
    String maskedUrl() {
        return mask(url);
    }

    /** Who connects, for messages: the configured user, the URL's, or "(default)". */
    String userShown() {
        if (user != null) {
            return user;
        }
        Properties parsed = url == null ? null : Driver.parseURL(url, new Properties());
        String fromUrl = parsed == null ? null : parsed.getProperty("user");
        return fromUrl != null ? fromUrl : "(driver default)";
    }

    /** "url (user u, schema s, tables s.wf_*)" */
    String describe() {
        return maskedUrl() + " (user " + userShown() + ", tables " + schema + "." + prefix + "*)";
    }

    /** Key of the transaction-level advisory lock that serialises migrations of these tables. */
    long migrationLockKey() {
        byte[] digest = sha256("worldflow migrations " + schema + "." + prefix);
        long key = 0;
        for (int i = 0; i < 8; i++) {
            key = (key << 8) | (digest[i] & 0xFF);
        }
        return key;
    }

    /**
     * The NOTIFY channel of these tables: {@code <schema>.<prefix>due}, or a hashed form when that would
     * pass PostgreSQL's 63-byte limit. Including the schema keeps worlds in other schemas of the database
     * from waking each other.
     */
    String channel() {
        return channel("due");
    }

    /** The NOTIFY channel on which appends that finish runs name them ({@code <schema>.<prefix>ended}). */
    String endChannel() {
        return channel("ended");
    }

    private String channel(String name) {
        String plain = schema + "." + prefix + name;
        if (plain.length() <= MAX_CHANNEL_LENGTH) {
            return plain;
        }
        return prefix + name + "_" + HexFormat.of().formatHex(sha256(schema)).substring(0, 16);
    }

    static String mask(String url) {
        return url == null ? null : PASSWORD_IN_URL.matcher(url).replaceAll("$1****");
    }

    private static String url(WorldConfig config) {
        String key = PostgresWorldProvider.URL;
        String url = config.get(key)
                .orElseThrow(() -> new ConfigurationException("missing configuration key " + key
                        + ": the postgres world needs a JDBC URL such as jdbc:postgresql://localhost:5432/app"));
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new ConfigurationException(key + " must be a jdbc:postgresql: URL (e.g. "
                    + "jdbc:postgresql://localhost:5432/app), was '" + mask(url) + "'");
        }
        if (Driver.parseURL(url, new Properties()) == null) {
            throw new ConfigurationException(key + " is not a valid PostgreSQL JDBC URL: '" + mask(url) + "'");
        }
        return url;
    }

    private static String schema(WorldConfig config) {
        String schema = identifier(config, PostgresWorldProvider.SCHEMA, DEFAULT_SCHEMA, MAX_SCHEMA_LENGTH);
        if (schema.startsWith("pg_") || schema.equals("information_schema")) {
            throw new ConfigurationException(
                    PostgresWorldProvider.SCHEMA + " must not name a system schema, was '" + schema + "'");
        }
        return schema;
    }

    private static String prefix(WorldConfig config) {
        return identifier(config, PostgresWorldProvider.TABLE_PREFIX, DEFAULT_PREFIX, MAX_PREFIX_LENGTH);
    }

    /** A name used in SQL as it is: lower-case letters, digits and underscores, not starting with a digit. */
    private static String identifier(WorldConfig config, String key, String fallback, int maxLength) {
        String value = config.get(key, fallback);
        if (!IDENTIFIER.matcher(value).matches() || value.length() > maxLength) {
            String hint = IDENTIFIER.matcher(value.toLowerCase(Locale.ROOT)).matches() && value.length() <= maxLength
                    ? " (use lower case: '" + value.toLowerCase(Locale.ROOT) + "')"
                    : "";
            throw new ConfigurationException(key + " must be 1 to " + maxLength + " lower-case letters, digits or _,"
                    + " not starting with a digit, was '" + value + "'" + hint);
        }
        return value;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "PgSettings[" + describe() + ", pool " + poolSize + ", startup timeout " + startupTimeout + "]";
    }
}
