package io.worldflow.world.jdbc;

import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;

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
import java.util.Optional;

/**
 * A world's versioned schema: SQL scripts {@code migrations/V<n>__<description>.sql} in the package of a class of
 * the world. {@link #apply} takes the dialect's lock, creates the namespace, reads the version table (creating it
 * in an empty place), then runs each missing script and records it, all in one transaction: a failure leaves the
 * place as it was. A place of a newer version, or holding tables of something else, is refused untouched.
 */
public final class MigrationRunner {

    private final Class<?> anchor;
    private final List<String> scripts;

    /**
     * @param anchor  the class beside whose package the {@code migrations/} resources lie
     * @param scripts the scripts' file names, oldest first; the one at index {@code i} starts with {@code V<i+1>__}
     * @throws IllegalArgumentException when a name is not numbered by its place in the list
     */
    public MigrationRunner(Class<?> anchor, List<String> scripts) {
        for (int i = 0; i < scripts.size(); i++) {
            if (!scripts.get(i).startsWith("V" + (i + 1) + "__")) {
                throw new IllegalArgumentException("migration script " + (i + 1) + " must be named V" + (i + 1)
                        + "__<description>.sql, not " + scripts.get(i));
            }
        }
        this.anchor = anchor;
        this.scripts = List.copyOf(scripts);
    }

    /** The newest schema version the scripts make: the last script's. */
    public int latest() {
        return scripts.size();
    }

    /** The text of the script that makes {@code version}, placeholders left in. */
    public String script(int version) {
        String resource = "migrations/" + scripts.get(version - 1);
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(
                        "missing migration resource " + resource + " beside " + anchor.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read migration " + resource, e);
        }
    }

    /**
     * Brings the place up to {@link #latest()} on {@code c}, which is left in autocommit mode. A failure the dialect
     * calls {@linkplain MigrationDialect#raced a race} is tried once more.
     *
     * @return the schema version now in place
     * @throws SchemaVersionException when the place holds a newer version
     * @throws WorldException         when the place holds tables of something else
     */
    public int apply(Connection c, MigrationDialect dialect, InstantSource clock) throws SQLException {
        try {
            return applyOnce(c, dialect, clock);
        } catch (SQLException e) {
            if (!dialect.raced(e)) {
                throw e;
            }
            return applyOnce(c, dialect, clock);
        }
    }

    private int applyOnce(Connection c, MigrationDialect dialect, InstantSource clock) throws SQLException {
        c.setAutoCommit(false);
        try {
            if (dialect.lockStatement() != null) {
                try (Statement st = c.createStatement()) {
                    st.execute(dialect.lockStatement());
                }
            }
            dialect.createPlace(c);
            int found = currentVersion(c, dialect);
            if (found > latest()) {
                throw new SchemaVersionException(dialect.place(), found, latest());
            }
            for (int version = found + 1; version <= latest(); version++) {
                try (Statement st = c.createStatement()) {
                    for (String statement : statements(dialect.render(script(version)))) {
                        st.execute(statement);
                    }
                }
                try (PreparedStatement record = c.prepareStatement("INSERT INTO " + dialect.versionTable()
                        + " (version, description, applied_at) VALUES (?, ?, ?)")) {
                    record.setInt(1, version);
                    record.setString(2, scripts.get(version - 1));
                    record.setLong(3, Micros.of(clock.instant()));
                    record.executeUpdate();
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException | Error e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            try {
                c.setAutoCommit(true);
            } catch (SQLException restore) {
                e.addSuppressed(restore);
            }
            throw e;
        }
        c.setAutoCommit(true);
        return latest();
    }

    /** The version found: 0 for an empty place, after creating the version table in it. */
    private static int currentVersion(Connection c, MigrationDialect dialect) throws SQLException {
        if (!dialect.hasVersionTable(c)) {
            Optional<String> foreign = dialect.foreignTables(c);
            if (foreign.isPresent()) {
                throw new WorldException(foreign.get(), false, null);
            }
            try (Statement st = c.createStatement()) {
                st.execute(dialect.versionTableDdl());
            }
            return 0;
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(version), 0) FROM " + dialect.versionTable())) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    /** The script's statements: comment lines dropped, split at semicolons that end a line. */
    public static List<String> statements(String script) {
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
