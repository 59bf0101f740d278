package io.worldflow.world.postgres;

import io.worldflow.world.jdbc.MigrationDialect;
import io.worldflow.world.jdbc.MigrationRunner;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * The versioned schema: SQL scripts {@code migrations/V<n>__<description>.sql} next to this class, with
 * {@code ${schema}} and {@code ${prefix}} placeholders, applied by {@link MigrationRunner} on start. Its
 * transaction first takes {@code pg_advisory_xact_lock} on a key derived from schema and prefix, so that workers
 * starting together migrate once; each version is recorded in {@code <prefix>schema_version}.
 */
final class Migrations implements MigrationDialect {

    /** The scripts this code knows, oldest first; the last one's version is the newest schema it supports. */
    static final List<String> SCRIPTS = List.of(
            "V1__init.sql",
            "V2__signal_keys.sql",
            "V3__log_rows.sql",
            "V4__run_indexes.sql",
            "V5__task_indexes.sql",
            "V6__started_in_runs.sql",
            "V7__held_since.sql",
            "V8__parent.sql",
            "V9__finished_at.sql",
            "V10__cancel_terminate.sql",
            "V11__schedules.sql",
            "V12__queues.sql",
            "V13__actors.sql",
            "V14__log_chain.sql",
            "V15__revoked_urls.sql",
            "V16__search_attributes.sql",
            "V17__run_order_key.sql",
            "V18__continued_from.sql");

    private static final MigrationRunner RUNNER = new MigrationRunner(Migrations.class, SCRIPTS);

    /** SQLSTATEs of a concurrent CREATE SCHEMA by a world with another prefix: trying again resolves it. */
    private static final List<String> RACED = List.of("23505", "42P06");

    /** The time now in epoch microseconds, as a statement of the printed script records it. */
    private static final String NOW_MICROS = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

    private final PgSettings settings;

    private Migrations(PgSettings settings) {
        this.settings = settings;
    }

    /**
     * Brings the schema up to the newest version on {@code c} (left in autocommit mode afterwards).
     *
     * @return the schema version now in place
     * @throws io.worldflow.SchemaVersionException when the tables were written by a newer Worldflow
     * @throws io.worldflow.WorldException         when the tables belong to something else
     */
    static int apply(Connection c, PgSettings settings, InstantSource clock) throws SQLException {
        return RUNNER.apply(c, new Migrations(settings), clock);
    }

    /**
     * The whole schema as one script a DBA can review and run on an empty schema: the same statements the
     * world runs on start, in one transaction under the same advisory lock, recording the version.
     */
    static String printable(PgSettings settings) {
        Migrations d = new Migrations(settings);
        StringBuilder out = new StringBuilder("""
                -- Worldflow Postgres world: schema version %d in schema %s, table prefix %s
                -- Apply once to an empty schema; Worldflow then finds the schema current and changes nothing.
                BEGIN;
                %s;
                CREATE SCHEMA IF NOT EXISTS %s;
                %s;
                """.formatted(
                        RUNNER.latest(),
                        settings.schema(),
                        settings.prefix(),
                        d.lockStatement(),
                        settings.schema(),
                        d.versionTableDdl()));
        for (int version = 1; version <= RUNNER.latest(); version++) {
            String script = SCRIPTS.get(version - 1);
            out.append("""

                    -- %s
                    %s
                    INSERT INTO %s (version, description, applied_at) VALUES (%d, '%s', %s);
                    """.formatted(
                    script, d.render(RUNNER.script(version)).strip(), d.versionTable(), version, script, NOW_MICROS));
        }
        return out.append("COMMIT;\n").toString();
    }

    @Override
    public String place() {
        return "postgres world: " + settings.describe();
    }

    @Override
    public String lockStatement() {
        return "SELECT pg_advisory_xact_lock(" + settings.migrationLockKey() + ")";
    }

    @Override
    public void createPlace(Connection c) throws SQLException {
        if (!exists(c, "SELECT 1 FROM pg_namespace WHERE nspname = ?", settings.schema())) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE SCHEMA " + settings.schema());
            }
        }
    }

    /** {@code schema.prefix+schema_version}: both are validated plain identifiers (see {@link PgSettings}). */
    @Override
    public String versionTable() {
        return table("schema_version");
    }

    @Override
    public boolean hasVersionTable(Connection c) throws SQLException {
        return exists(c, "SELECT to_regclass(?)", versionTable());
    }

    @Override
    public Optional<String> foreignTables(Connection c) throws SQLException {
        if (!exists(c, "SELECT to_regclass(?)", table("runs"))) {
            return Optional.empty();
        }
        return Optional.of("postgres world: " + table("runs") + " exists but " + settings.prefix()
                + "schema_version does not: the tables belong to something else; choose another "
                + PostgresWorldProvider.SCHEMA + " or " + PostgresWorldProvider.TABLE_PREFIX);
    }

    @Override
    public String render(String script) {
        return script.replace("${schema}", settings.schema()).replace("${prefix}", settings.prefix());
    }

    @Override
    public boolean raced(SQLException e) {
        return RACED.contains(e.getSQLState());
    }

    private String table(String name) {
        return settings.schema() + "." + settings.prefix() + name;
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
}
