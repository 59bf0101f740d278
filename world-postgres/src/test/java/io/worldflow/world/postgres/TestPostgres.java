package io.worldflow.world.postgres;

import io.worldflow.spi.WorldConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The PostgreSQL server the tests use: the one named by {@code WORLDFLOW_TEST_POSTGRES_URL} when set, else
 * one embedded server per test JVM (zonky, with fsync and synchronous_commit on, as in production). Tests that
 * stop and start a server start their own with {@link #embedded}; a container's is reached with {@link #at}.
 */
public final class TestPostgres {

    /** Environment variable naming an external server (a jdbc:postgresql: URL with credentials). */
    public static final String ENV_URL = "WORLDFLOW_TEST_POSTGRES_URL";
    /** A role that must log in with a password, on the embedded server (see {@link #passwordUser()}). */
    static final String PASSWORD_USER = "worldflow_pw";

    static final String PASSWORD = "s3cret-Pa55";

    private static TestPostgres shared;

    private final String url;
    private final String user;
    private final String password;
    private final boolean embedded;

    private TestPostgres(String url, String user, String password, boolean embedded) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.embedded = embedded;
    }

    /** A server the test started itself (a container, say), reached with these credentials. */
    public static TestPostgres at(String url, String user, String password) {
        return new TestPostgres(url, user, password, false);
    }

    /** The server shared by the tests of this JVM, started on first use. */
    public static synchronized TestPostgres shared() {
        if (shared == null) {
            String external = System.getenv(ENV_URL);
            if (external != null && !external.isBlank()) {
                shared = new TestPostgres(external.strip(), null, null, false);
            } else {
                EmbeddedPostgres pg = embedded(null, 0);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(pg)));
                shared = new TestPostgres(
                        "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres", "postgres", null, true);
                shared.execute(
                        "CREATE ROLE " + PASSWORD_USER + " LOGIN PASSWORD '" + PASSWORD + "'",
                        "GRANT CREATE ON DATABASE postgres TO " + PASSWORD_USER);
            }
        }
        return shared;
    }

    /**
     * Starts an embedded server (durable settings; a role that needs a password, see {@link #PASSWORD_USER}).
     *
     * @param dataDirectory where its files live (kept when the server stops, so it can start again on them),
     *                      or null for a temporary directory removed on close
     * @param port          its port, or 0 for any free one
     */
    static EmbeddedPostgres embedded(Path dataDirectory, int port) {
        try {
            EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_connections", "300")
                    .setDataDirectoryCustomizer(TestPostgres::requirePasswordFor);
            if (dataDirectory != null) {
                b.setDataDirectory(dataDirectory).setCleanDataDirectory(false);
            }
            if (port != 0) {
                b.setPort(port);
            }
            return b.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start an embedded PostgreSQL", e);
        }
    }

    /** pg_hba.conf: the password role must authenticate with a password; everyone else is trusted. */
    private static void requirePasswordFor(File dataDirectory) {
        Path hba = dataDirectory.toPath().resolve("pg_hba.conf");
        try {
            String rules = "host all " + PASSWORD_USER + " 127.0.0.1/32 scram-sha-256\n" + "host all " + PASSWORD_USER
                    + " ::1/128 scram-sha-256\n";
            String existing = Files.exists(hba) ? Files.readString(hba, StandardCharsets.UTF_8) : "";
            if (!existing.contains(PASSWORD_USER)) {
                Files.writeString(hba, rules + existing, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void closeQuietly(EmbeddedPostgres pg) {
        try {
            pg.close();
        } catch (IOException | RuntimeException e) {
            // the JVM is ending, or the server is already gone
        }
    }

    public String url() {
        return url;
    }

    public boolean isEmbedded() {
        return embedded;
    }

    /** The world's configuration for tables in {@code schema}. */
    public WorldConfig config(String schema) {
        Map<String, String> values = new HashMap<>();
        values.put(PostgresWorldProvider.URL, url);
        if (user != null) {
            values.put(PostgresWorldProvider.USER, user);
        }
        if (password != null) {
            values.put(PostgresWorldProvider.PASSWORD, password);
        }
        values.put(PostgresWorldProvider.SCHEMA, schema);
        values.put(PostgresWorldProvider.POOL_SIZE, "4");
        values.put(PostgresWorldProvider.STARTUP_TIMEOUT, "10s");
        return WorldConfig.of(values);
    }

    /** A connection as the administrator (or the external URL's user). */
    public Connection connect() throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(url, p);
    }

    /** Runs statements in autocommit mode. */
    public void execute(String... sql) {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + String.join("; ", sql), e);
        }
    }

    /** Drops the schemas (tests on an external server clean up after themselves). */
    public void dropSchemas(Iterable<String> schemas) {
        for (String schema : schemas) {
            execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
