package io.worldflow.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

/**
 * The postgres world: the server at {@code WORLDFLOW_TEST_POSTGRES_URL} when set, else an embedded PostgreSQL 17
 * (zonky) started here with fsync and synchronous_commit on. A new schema per workload.
 */
final class PostgresTarget implements Target, Target.CostCounters {

    static final String ENV_URL = "WORLDFLOW_TEST_POSTGRES_URL";

    private final EmbeddedPostgres embedded;
    private final String url;
    private final String user;
    private final List<String> schemas = new ArrayList<>();

    PostgresTarget() {
        String external = System.getenv(ENV_URL);
        if (external != null && !external.isBlank()) {
            embedded = null;
            url = external.strip();
            user = null;
        } else {
            try {
                embedded = EmbeddedPostgres.builder()
                        .setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .setServerConfig("max_connections", "300")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start an embedded PostgreSQL", e);
            }
            url = "jdbc:postgresql://localhost:" + embedded.getPort() + "/postgres";
            user = "postgres";
        }
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String describe() {
        return embedded != null
                ? "embedded PostgreSQL (fsync=on, synchronous_commit=on) " + url
                : url.replaceAll("password=[^&]*", "password=***");
    }

    @Override
    public Map<String, String> freshWorld(String label) {
        String schema = "bench_" + label.toLowerCase().replaceAll("[^a-z0-9]", "") + "_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        schemas.add(schema);
        Map<String, String> p = new LinkedHashMap<>();
        p.put("worldflow.world", "postgres");
        p.put("worldflow.postgres.url", url);
        if (user != null) {
            p.put("worldflow.postgres.user", user);
        }
        p.put("worldflow.postgres.schema", schema);
        return p;
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public Optional<CostCounters> costCounters() {
        return Optional.of(this);
    }

    @Override
    public Target.Cost read() {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            return new Target.Cost(
                    one(st, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"),
                    one(st, "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"),
                    one(st, "SELECT wal_sync FROM pg_stat_wal"));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the server's counters", e);
        }
    }

    private static long one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Connection connect() throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        return DriverManager.getConnection(url, p);
    }

    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                // gone anyway
            }
            return;
        }
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String s : schemas) {
                st.execute("DROP SCHEMA IF EXISTS " + s + " CASCADE");
            }
        } catch (SQLException e) {
            // schemas left behind on the external server
        }
    }
}
