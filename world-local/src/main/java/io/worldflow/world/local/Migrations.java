package io.worldflow.world.local;

import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;
import io.worldflow.world.jdbc.Micros;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The versioned schema: SQL scripts {@code migrations/V<n>__<description>.sql} next to this class, applied
 * in order on open, all in one transaction, each recorded in {@code schema_version}.
 */
final class Migrations {

    /** The scripts this code knows, oldest first; the last one's version is the newest schema it supports. */
    static final List<String> SCRIPTS = List.of("V1__init.sql", "V2__signal_keys.sql", "V3__lease_order.sql",
            "V4__log_rows.sql", "V5__log_rows_without_identity.sql", "V6__held_since.sql");
    static final int LATEST = SCRIPTS.size();

    private static final String VERSION_TABLE = """
            CREATE TABLE IF NOT EXISTS schema_version (
                version     INTEGER NOT NULL PRIMARY KEY,
                description TEXT    NOT NULL,
                applied_at  INTEGER NOT NULL
            )""";

    private Migrations() {
    }

    /**
     * Brings the schema up to {@link #LATEST}.
     *
     * @return the schema version now in place
     * @throws SchemaVersionException when the file was written by a newer Worldflow
     * @throws WorldException         when the file is a SQLite database of something else
     */
    static int apply(SqlSession session, Path database, InstantSource clock) throws SQLException {
        session.begin();
        try {
            int found = currentVersion(session, database);
            if (found > LATEST) {
                throw new SchemaVersionException(database.toString(), found, LATEST);
            }
            for (int version = found + 1; version <= LATEST; version++) {
                String script = SCRIPTS.get(version - 1);
                for (String statement : statements(load(script))) {
                    session.execute(statement);
                }
                PreparedStatement record = session.prepare(
                        "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)");
                record.setInt(1, version);
                record.setString(2, script);
                record.setLong(3, Micros.of(clock.instant()));
                record.executeUpdate();
            }
            session.commit();
            return LATEST;
        } catch (SQLException | RuntimeException e) {
            session.rollback(e);
            throw e;
        }
    }

    private static int currentVersion(SqlSession session, Path database) throws SQLException {
        Set<String> tables = new HashSet<>();
        try (ResultSet rs = session.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").executeQuery()) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        if (!tables.contains("schema_version")) {
            tables.removeIf(name -> name.startsWith("sqlite_"));
            if (!tables.isEmpty()) {
                throw new WorldException("local world: " + database + " is a SQLite database of something else"
                        + " (it has tables " + tables + " but no schema_version); point "
                        + LocalWorldProvider.PATH + " at a new or Worldflow file", false, null);
            }
            session.execute(VERSION_TABLE);
            return 0;
        }
        try (ResultSet rs = session.prepare("SELECT COALESCE(MAX(version), 0) FROM schema_version").executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
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
