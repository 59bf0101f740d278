package io.worldflow.world.local;

import io.worldflow.world.jdbc.MigrationDialect;
import io.worldflow.world.jdbc.MigrationRunner;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The file's versioned schema: SQL scripts {@code migrations/V<n>__<description>.sql} next to this class, applied
 * by {@link MigrationRunner} on open and recorded in {@code schema_version}. SQLite needs no lock (the file belongs
 * to one process, see {@link FileOwnership}) and has no namespace to create; a file with tables but no
 * {@code schema_version} is another program's.
 */
final class Migrations implements MigrationDialect {

    /** The scripts this code knows, oldest first; the last one's version is the newest schema it supports. */
    static final List<String> SCRIPTS = List.of(
            "V1__init.sql",
            "V2__signal_keys.sql",
            "V3__lease_order.sql",
            "V4__log_rows.sql",
            "V5__log_rows_without_identity.sql",
            "V6__held_since.sql",
            "V7__parent.sql",
            "V8__finished_at.sql",
            "V9__cancel_terminate.sql",
            "V10__schedules.sql",
            "V11__queues.sql",
            "V12__actors.sql",
            "V13__log_chain.sql",
            "V14__revoked_urls.sql",
            "V15__search_attributes.sql",
            "V16__run_order_key.sql",
            "V17__continued_from.sql");

    private static final MigrationRunner RUNNER = new MigrationRunner(Migrations.class, SCRIPTS);

    private final Path database;

    Migrations(Path database) {
        this.database = database;
    }

    /**
     * Brings the schema up to the newest version, in one transaction on {@code c} (whose connection must begin
     * it with {@code BEGIN IMMEDIATE}, see {@link Database}).
     *
     * @return the schema version now in place
     * @throws io.worldflow.SchemaVersionException when the file was written by a newer Worldflow
     * @throws io.worldflow.WorldException         when the file is a SQLite database of something else
     */
    static int apply(Connection c, Path database, InstantSource clock) throws SQLException {
        return RUNNER.apply(c, new Migrations(database), clock);
    }

    @Override
    public String place() {
        return database.toString();
    }

    @Override
    public String versionTable() {
        return "schema_version";
    }

    @Override
    public boolean hasVersionTable(Connection c) throws SQLException {
        return tables(c).contains("schema_version");
    }

    @Override
    public Optional<String> foreignTables(Connection c) throws SQLException {
        Set<String> tables = tables(c);
        tables.removeIf(name -> name.startsWith("sqlite_"));
        if (tables.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("local world: " + database + " is a SQLite database of something else (it has tables "
                + tables + " but no schema_version); point " + LocalWorldProvider.PATH + " at a new or Worldflow file");
    }

    private static Set<String> tables(Connection c) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }
}
