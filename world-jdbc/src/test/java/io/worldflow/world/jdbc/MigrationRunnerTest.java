package io.worldflow.world.jdbc;

import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The runner over an in-memory SQLite database, with the scripts in {@code migrations/} beside this class. */
class MigrationRunnerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00.123456Z");
    private static final MigrationRunner TWO =
            new MigrationRunner(MigrationRunnerTest.class, List.of("V1__people.sql", "V2__emails.sql"));
    private static final MigrationRunner THREE_BROKEN = new MigrationRunner(
            MigrationRunnerTest.class, List.of("V1__people.sql", "V2__emails.sql", "V3__broken.sql"));

    private final Connection c = connect();
    private final TestDialect dialect = new TestDialect("t_");

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void appliesTheScriptsInOrderInsideTheLockAndRecordsEach() throws SQLException {
        int version = TWO.apply(c, dialect, InstantSource.fixed(T0));

        assertThat(version).isEqualTo(2);
        assertThat(versions())
                .containsExactly("1 V1__people.sql " + Micros.of(T0), "2 V2__emails.sql " + Micros.of(T0));
        assertThat(rows("SELECT name || ' ' || email FROM t_people")).containsExactly("ada ada@example.com");
        assertThat(tables()).containsExactlyInAnyOrder("t_people", "t_schema_version");
        assertThat(dialect.lockedInTransaction).containsExactly(true);
        assertThat(c.getAutoCommit()).isTrue();
    }

    @Test
    void aSecondRunChangesNothing() throws SQLException {
        TWO.apply(c, dialect, InstantSource.fixed(T0));
        execute("INSERT INTO t_people (id, name) VALUES (2, 'grace')");

        int version = TWO.apply(c, dialect, InstantSource.fixed(T0.plusSeconds(60)));

        assertThat(version).isEqualTo(2);
        assertThat(versions())
                .containsExactly("1 V1__people.sql " + Micros.of(T0), "2 V2__emails.sql " + Micros.of(T0));
        assertThat(rows("SELECT name FROM t_people ORDER BY id")).containsExactly("ada", "grace");
    }

    @Test
    void anOlderSchemaGetsOnlyTheMissingScripts() throws SQLException {
        new MigrationRunner(MigrationRunnerTest.class, List.of("V1__people.sql"))
                .apply(c, dialect, InstantSource.fixed(T0));

        TWO.apply(c, dialect, InstantSource.fixed(T0.plusSeconds(60)));

        assertThat(versions())
                .containsExactly(
                        "1 V1__people.sql " + Micros.of(T0), "2 V2__emails.sql " + Micros.of(T0.plusSeconds(60)));
    }

    @Test
    void aNewerRecordedVersionIsRefusedNamingBothVersionsAndThePlace() throws SQLException {
        TWO.apply(c, dialect, InstantSource.fixed(T0));
        execute("INSERT INTO t_schema_version VALUES (3, 'V3__future.sql', 0)");

        assertThatThrownBy(() -> TWO.apply(c, dialect, InstantSource.fixed(T0)))
                .isInstanceOfSatisfying(
                        SchemaVersionException.class,
                        e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining("test database")
                .hasMessageContaining("schema version 3")
                .hasMessageContaining("supports up to 2");
        assertThat(versions()).hasSize(3);
        assertThat(c.getAutoCommit()).isTrue();
    }

    @Test
    void aPlaceHoldingTablesOfSomethingElseIsRefusedUntouched() throws SQLException {
        execute("CREATE TABLE customers (id INTEGER PRIMARY KEY)");

        assertThatThrownBy(() -> TWO.apply(c, dialect, InstantSource.fixed(T0)))
                .isInstanceOfSatisfying(
                        WorldException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessage("test database holds [customers] and no t_schema_version");
        assertThat(tables()).containsExactly("customers");
    }

    @Test
    void aFailingScriptRollsBackEveryScriptOfTheRun() {
        assertThatThrownBy(() -> THREE_BROKEN.apply(c, dialect, InstantSource.fixed(T0)))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("t_no_such_table");

        assertThat(tables()).isEmpty();
    }

    @Test
    void aFailingScriptLeavesTheVersionBeforeIt() throws SQLException {
        TWO.apply(c, dialect, InstantSource.fixed(T0));

        assertThatThrownBy(() -> THREE_BROKEN.apply(c, dialect, InstantSource.fixed(T0)))
                .isInstanceOf(SQLException.class);

        assertThat(versions()).hasSize(2);
        assertThat(tables()).containsExactlyInAnyOrder("t_people", "t_schema_version");
        assertThat(c.getAutoCommit()).isTrue();
    }

    @Test
    void aRaceCreatingTheNamespaceIsTriedOnceMore() throws SQLException {
        dialect.createPlaceFailures.add(new SQLException("schema exists", "42P06"));

        assertThat(TWO.apply(c, dialect, InstantSource.fixed(T0))).isEqualTo(2);

        assertThat(versions()).hasSize(2);
        assertThat(dialect.lockedInTransaction).containsExactly(true, true);
    }

    @Test
    void anyOtherFailureIsNotTriedAgain() {
        dialect.createPlaceFailures.add(new SQLException("permission denied", "42501"));
        dialect.createPlaceFailures.add(new SQLException("not reached", "42501"));

        assertThatThrownBy(() -> TWO.apply(c, dialect, InstantSource.fixed(T0))).hasMessage("permission denied");

        assertThat(dialect.lockedInTransaction).hasSize(1);
        assertThat(tables()).isEmpty();
    }

    @Test
    void scriptsMustBeNumberedByTheirPlace() {
        assertThatThrownBy(() -> new MigrationRunner(MigrationRunnerTest.class, List.of("V1__a.sql", "V3__b.sql")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("V3__b.sql");
    }

    @Test
    void aMissingScriptIsNamed() {
        MigrationRunner runner = new MigrationRunner(MigrationRunnerTest.class, List.of("V1__absent.sql"));

        assertThatThrownBy(() -> runner.apply(c, dialect, InstantSource.fixed(T0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("migrations/V1__absent.sql");
        assertThat(tables()).isEmpty();
    }

    @Test
    void statementsAreSplitAtSemicolonsEndingALineWithCommentLinesDropped() {
        String script = """
                -- a comment; with a semicolon
                CREATE TABLE a (
                    x TEXT DEFAULT 'a;b'
                );

                INSERT INTO a VALUES ('1');   \s
                  -- indented comment
                UPDATE a SET x = '2'""";

        assertThat(MigrationRunner.statements(script))
                .containsExactly(
                        "CREATE TABLE a (\n    x TEXT DEFAULT 'a;b'\n)",
                        "INSERT INTO a VALUES ('1')",
                        "UPDATE a SET x = '2'");
        assertThat(MigrationRunner.statements("-- nothing\n\n")).isEmpty();
    }

    private List<String> versions() throws SQLException {
        return rows("SELECT version || ' ' || description || ' ' || applied_at FROM t_schema_version ORDER BY version");
    }

    private List<String> tables() {
        try {
            return rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private void execute(String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static Connection connect() {
        try {
            return DriverManager.getConnection("jdbc:sqlite::memory:");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SQLite with a table prefix, as a world would write it; notes what the runner asked of it. */
    private static final class TestDialect implements MigrationDialect {

        private final String prefix;
        final List<Boolean> lockedInTransaction = new ArrayList<>();
        final List<SQLException> createPlaceFailures = new ArrayList<>();

        TestDialect(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public String place() {
            return "test database";
        }

        @Override
        public String lockStatement() {
            return "CREATE TEMP TABLE lock_taken (x)";
        }

        /** Called right after the lock: its table must stand, in a transaction. */
        @Override
        public void createPlace(Connection c) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE temp.lock_taken");
            }
            lockedInTransaction.add(!c.getAutoCommit());
            if (!createPlaceFailures.isEmpty()) {
                throw createPlaceFailures.removeFirst();
            }
        }

        @Override
        public String versionTable() {
            return prefix + "schema_version";
        }

        @Override
        public String versionTableDdl() {
            return "CREATE TABLE " + versionTable() + " (version INTEGER NOT NULL PRIMARY KEY,"
                    + " description TEXT NOT NULL, applied_at INTEGER NOT NULL)";
        }

        @Override
        public boolean hasVersionTable(Connection c) throws SQLException {
            return tableNames(c).contains(versionTable());
        }

        @Override
        public Optional<String> foreignTables(Connection c) throws SQLException {
            List<String> tables = tableNames(c);
            return tables.isEmpty()
                    ? Optional.empty()
                    : Optional.of(place() + " holds " + tables + " and no " + versionTable());
        }

        @Override
        public String render(String script) {
            return script.replace("${prefix}", prefix);
        }

        @Override
        public boolean raced(SQLException e) {
            return "42P06".equals(e.getSQLState());
        }

        private static List<String> tableNames(Connection c) throws SQLException {
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'"
                            + " AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }
}
