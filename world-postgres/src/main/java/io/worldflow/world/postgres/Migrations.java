package io.worldflow.world.postgres;

import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;
import io.worldflow.world.jdbc.Micros;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The versioned schema: SQL scripts {@code migrations/V<n>__<description>.sql} next to this class, with
 * {@code ${schema}} and {@code ${prefix}} placeholders. On start they are applied in order, all in one
 * transaction that first takes {@code pg_advisory_xact_lock} on a key derived from schema and prefix, so
 * that workers starting together migrate once; each version is recorded in {@code <prefix>schema_version}.
 */
final class Migrations {

    /** The scripts this code knows, oldest first; the last one's version is the newest schema it supports. */
    static final List<String> SCRIPTS = List.of("V1__init.sql", "V2__signal_keys.sql", "V3__log_rows.sql",
            "V4__run_indexes.sql", "V5__task_indexes.sql", "V6__started_in_runs.sql",
            "V7__held_since.sql");
    static final int LATEST = SCRIPTS.size();

    private static final String VERSION_TABLE = """
            CREATE TABLE ${schema}.${prefix}schema_version (
                version     integer NOT NULL PRIMARY KEY,
                description text    NOT NULL,
                applied_at  bigint  NOT NULL
            )""";
    /** SQLSTATEs of a concurrent CREATE SCHEMA by a world with another prefix: trying again resolves it. */
    private static final List<String> RACED = List.of("23505", "42P06");

    private Migrations() {
    }

    /**
     * Brings the schema up to {@link #LATEST} on {@code c} (left in autocommit mode afterwards).
     *
     * @return the schema version now in place
     * @throws SchemaVersionException when the tables were written by a newer Worldflow
     * @throws WorldException         when the tables belong to something else
     */
    static int apply(Connection c, PgSettings settings, InstantSource clock) throws SQLException {
        try {
            return applyOnce(c, settings, clock);
        } catch (SQLException e) {
            if (!RACED.contains(e.getSQLState())) {
                throw e;
            }
            return applyOnce(c, settings, clock);
        }
    }

    private static int applyOnce(Connection c, PgSettings settings, InstantSource clock) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, settings.migrationLockKey());
                lock.execute();
            }
            if (!exists(c, "SELECT 1 FROM pg_namespace WHERE nspname = ?", settings.schema())) {
                execute(c, "CREATE SCHEMA " + settings.schema());
            }
            int found = currentVersion(c, settings);
            if (found > LATEST) {
                throw new SchemaVersionException("postgres world: " + settings.describe(), found, LATEST);
            }
            for (int version = found + 1; version <= LATEST; version++) {
                String script = SCRIPTS.get(version - 1);
                for (String statement : statements(render(load(script), settings))) {
                    execute(c, statement);
                }
                try (PreparedStatement record = c.prepareStatement("INSERT INTO " + table(settings, "schema_version")
                        + " (version, description, applied_at) VALUES (?, ?, ?)")) {
                    record.setInt(1, version);
                    record.setString(2, script);
                    record.setLong(3, Micros.of(clock.instant()));
                    record.executeUpdate();
                }
            }
            c.commit();
            return LATEST;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /**
     * The whole schema as one script a DBA can review and run on an empty schema: the same statements the
     * world runs on start, in one transaction under the same advisory lock, recording the version.
     */
    static String printable(PgSettings settings) {
        StringBuilder out = new StringBuilder();
        out.append("-- Worldflow Postgres world: schema version ").append(LATEST).append(" in schema ")
                .append(settings.schema()).append(", table prefix ").append(settings.prefix()).append('\n');
        out.append("-- Apply once to an empty schema; Worldflow then finds the schema current and changes nothing.\n");
        out.append("BEGIN;\n");
        out.append("SELECT pg_advisory_xact_lock(").append(settings.migrationLockKey()).append(");\n");
        out.append("CREATE SCHEMA IF NOT EXISTS ").append(settings.schema()).append(";\n");
        out.append(render(VERSION_TABLE, settings)).append(";\n");
        for (int version = 1; version <= LATEST; version++) {
            String script = SCRIPTS.get(version - 1);
            out.append("\n-- ").append(script).append('\n');
            out.append(render(load(script), settings).strip()).append('\n');
            out.append("INSERT INTO ").append(table(settings, "schema_version"))
                    .append(" (version, description, applied_at) VALUES (").append(version).append(", '")
                    .append(script).append("', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);\n");
        }
        out.append("COMMIT;\n");
        return out.toString();
    }

    /** The version found: 0 for an empty schema (after creating the version table in it). */
    private static int currentVersion(Connection c, PgSettings settings) throws SQLException {
        if (!exists(c, "SELECT to_regclass(?)", table(settings, "schema_version"))) {
            if (exists(c, "SELECT to_regclass(?)", table(settings, "runs"))) {
                throw new WorldException("postgres world: " + settings.schema() + "." + settings.prefix()
                        + "runs exists but " + settings.prefix() + "schema_version does not: the tables belong to"
                        + " something else; choose another " + PostgresWorldProvider.SCHEMA + " or "
                        + PostgresWorldProvider.TABLE_PREFIX, false, null);
            }
            execute(c, render(VERSION_TABLE, settings));
            return 0;
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(version), 0) FROM "
                     + table(settings, "schema_version"))) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    /** Whether the query (with one text parameter) returns a row whose first column is not null. */
    private static boolean exists(Connection c, String sql, String parameter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getObject(1) != null;
            }
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** {@code schema.prefix+name}: both are validated plain identifiers (see {@link PgSettings}). */
    private static String table(PgSettings settings, String name) {
        return settings.schema() + "." + settings.prefix() + name;
    }

    static String render(String script, PgSettings settings) {
        return script.replace("${schema}", settings.schema()).replace("${prefix}", settings.prefix());
    }

    private static String load(String script) {
        String resource = "migrations/" + script;
        try (InputStream in = Migrations.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing migration resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read migration " + resource, e);
        }
    }

    /** The script's statements: comment lines dropped, split at semicolons that end a line. */
    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }
}
