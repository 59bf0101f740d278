package io.worldflow.world.local;

import io.worldflow.ConfigurationException;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.runtime.Queues;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.MigrationRunner;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OpeningTest extends LocalWorldTestSupport {

    private WorldConfig configFor(Path file) {
        return WorldConfig.of(Map.of(LocalWorldProvider.PATH, file.toString()));
    }

    @Test
    void openCreatesParentDirectoriesTheFileAndItsLock() {
        assertThat(dbFile()).isRegularFile();
        assertThat(dbFile().resolveSibling("worldflow.db.lock")).isRegularFile();
    }

    @Test
    void databaseIsInWalModeWithTheSchemaVersionRecorded() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dbFile());
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("wal");
            }
            try (ResultSet rs =
                    st.executeQuery("SELECT version, description, applied_at FROM schema_version ORDER BY version")) {
                List<String> scripts = List.of(
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
                for (int version = 1; version <= scripts.size(); version++) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(version);
                    assertThat(rs.getString(2)).isEqualTo(scripts.get(version - 1));
                    assertThat(rs.getLong(3)).isEqualTo(Micros.of(now()));
                }
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @Test
    void theSchemaMigrationsTransactionHoldsTheWriteLockFromItsStart() throws SQLException {
        Path file = dir.resolve("immediate.db");
        try (SqlSession writer = Database.connect(LocalSettings.from(configFor(file)), false);
                Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = other.createStatement()) {
            st.execute("PRAGMA busy_timeout = 0");
            writer.connection().setAutoCommit(false); // as MigrationRunner begins, before any statement

            assertThatThrownBy(() -> st.execute("BEGIN IMMEDIATE"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("SQLITE_BUSY");
            writer.connection().setAutoCommit(true);
            st.execute("BEGIN IMMEDIATE");
            st.execute("ROLLBACK");
        }
    }

    @Test
    void aVersion3LogOfARowPerEventIsCarriedOverEventForEvent() throws Exception {
        Path old = dir.resolve("v3.db");
        Event started = newRun("r1").startedEvent();
        Event marker = new MarkerRecorded("r1", 1, now(), "m", "note", new Payload("[1,2]", null));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + old);
                Statement st = c.createStatement()) {
            migrateUpTo(st, 3);
            st.execute("INSERT INTO runs (run_id, workflow, status, input_json, created_at, updated_at, available_at,"
                    + " queue, priority, log_length) VALUES ('r1', 'wf', 'RUNNING', '1', 0, 0, 0, 'default', 0, 2)");
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO events (run_id, seq, type, at, json) VALUES ('r1', ?, ?, 0, ?)")) {
                for (Event e : List.of(started, marker)) {
                    ps.setLong(1, e.seq());
                    ps.setString(2, e.type());
                    ps.setString(3, codec.eventCodec().encode(e));
                    ps.executeUpdate();
                }
            }
        }

        World migrated = open(configFor(old));
        try {
            assertThat(migrated.eventLog().read("r1", 0)).containsExactly(started, marker);
            assertThat(migrated.eventLog().read("r1", 1)).containsExactly(marker);
            Event next = new MarkerRecorded("r1", 2, now(), "m2", "note", new Payload("3", null));
            assertThat(migrated.eventLog()
                            .append(List.of(new Append("r1", 2, List.of(next), RunStatus.RUNNING)))
                            .getFirst()
                            .appended())
                    .isTrue();
            assertThat(migrated.eventLog().read("r1", 0)).containsExactly(started, marker, next);
        } finally {
            migrated.close();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + old);
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'event%'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("event_log");
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void aRunHeldBeforeVersion6CountsItsHoldFromItsLastChangeAndIsListedAsHeld() throws Exception {
        Path old = dir.resolve("v5.db");
        ErrorInfo reason = ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "x");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + old);
                Statement st = c.createStatement()) {
            migrateUpTo(st, 5);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO runs (run_id, workflow, status, input_json,"
                    + " created_at, updated_at, available_at, queue, priority, log_length, held)"
                    + " VALUES (?, 'wf', 'SLEEPING', '1', 0, 5000000, 0, 'default', 0, 1, ?)")) {
                for (String id : List.of("held", "free")) {
                    ps.setString(1, id);
                    ps.setString(2, id.equals("held") ? codec.eventCodec().encodeError(reason) : null);
                    ps.executeUpdate();
                }
            }
        }

        World migrated = open(configFor(old));
        try {
            RunInfo held = migrated.runQueries().get("held").orElseThrow();
            assertThat(held.held()).isEqualTo(reason);
            assertThat(held.heldSince()).isEqualTo(Instant.ofEpochSecond(5));
            assertThat(migrated.runQueries().get("free").orElseThrow().heldSince())
                    .isNull();
            assertThat(migrated.runQueries().list(RunQuery.all().withHeld(true)).runs())
                    .extracting(RunInfo::runId)
                    .containsExactly("held");
        } finally {
            migrated.close();
        }
    }

    @Test
    void aChainWrittenBeforeVersion17IsKeptByRetentionWhileItsLastRunIsNot() throws Exception {
        Path old = dir.resolve("v16.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + old);
                Statement st = c.createStatement()) {
            migrateUpTo(st, 16);
            // id, status, the run it continues
            String[][] runs = {
                {"chain", "COMPLETED", null},
                {"chain~2", "COMPLETED", "chain"},
                {"chain~3", "WAITING", "chain~2"},
                {"solo~2", "COMPLETED", null}
            };
            try (PreparedStatement run = c.prepareStatement("INSERT INTO runs (run_id, workflow, status, input_json,"
                            + " created_at, updated_at, available_at, queue, priority, log_length)"
                            + " VALUES (?, 'wf', ?, '1', 0, 5000000, 0, 'default', 0, 1)");
                    PreparedStatement log = c.prepareStatement(
                            "INSERT INTO event_log (run_id, seq, last_seq, events) VALUES (?, 0, 0, ?)")) {
                for (String[] r : runs) {
                    run.setString(1, r[0]);
                    run.setString(2, r[1]);
                    run.executeUpdate();
                    NewRun started = new NewRun(
                                    r[0], "wf", new Payload("1", null), Instant.EPOCH, Instant.EPOCH, null, QUEUE, 0)
                            .withContinuedFrom(r[2]);
                    log.setString(1, r[0]);
                    log.setString(2, codec.eventCodec().encodeAll(List.of(started.startedEvent())));
                    log.executeUpdate();
                }
            }
        }

        World migrated = open(configFor(old));
        try {
            assertThat(migrated.eventLog().purgeFinished(Instant.ofEpochSecond(60), 100))
                    .isEqualTo(1);
            assertThat(migrated.runQueries().get("solo~2")).isEmpty();
            for (String id : List.of("chain", "chain~2", "chain~3")) {
                assertThat(migrated.runQueries().get(id)).as(id).isPresent();
            }
        } finally {
            migrated.close();
        }
    }

    @Test
    void anEngineStoppedByABadSettingLetsGoOfTheFileItOpened() {
        Path file = dir.resolve("engine.db");
        assertThatThrownBy(() -> Worldflow.builder()
                        .property(LocalWorldProvider.PATH, file.toString())
                        .property(Queues.DECLARED_ONLY, "maybe")
                        .build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(Queues.DECLARED_ONLY);

        // opened again in this JVM: the failed build closed it
        Worldflow.builder()
                .property(LocalWorldProvider.PATH, file.toString())
                .build()
                .close();
    }

    @Test
    void settingsReadOnlyLaterAreCheckedWhenTheEngineIsBuiltNamingTheirKey() {
        Path file = dir.resolve("later.db");
        String[][] bad = {
            {Worldflow.SIGNAL_MAX_BODY, "-5", "worldflow.signal.max-body must be 1..16777216, was -5"},
            {Worldflow.SIGNAL_MAX_BODY, "lots", "worldflow.signal.max-body"},
            // read whether or not a chain key is set: not only once one is added
            {io.worldflow.format.ChainKey.REQUIRED, "perhaps", "worldflow.audit.key-required"}
        };
        for (String[] b : bad) {
            assertThatThrownBy(() -> Worldflow.builder()
                            .property(LocalWorldProvider.PATH, file.toString())
                            .property(b[0], b[1])
                            .build())
                    .as(b[0] + "=" + b[1])
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining(b[2]);
        }
    }

    /** Makes an empty file the schema that version {@code last} left, as an older Worldflow did. */
    private static void migrateUpTo(Statement st, int last) throws Exception {
        st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL PRIMARY KEY, description TEXT NOT NULL,"
                + " applied_at INTEGER NOT NULL)");
        for (int version = 1; version <= last; version++) {
            String script = Migrations.SCRIPTS.get(version - 1);
            try (var in = Migrations.class.getResourceAsStream("migrations/" + script)) {
                for (String statement :
                        MigrationRunner.statements(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
                    st.execute(statement);
                }
            }
            st.execute("INSERT INTO schema_version VALUES (" + version + ", '" + script + "', 0)");
        }
    }

    @Test
    void openRejectsAFileThatIsNotADatabase() throws IOException {
        Path garbage = dir.resolve("garbage.db");
        byte[] bytes = new byte[8192];
        Arrays.fill(bytes, (byte) 'x');
        Files.write(garbage, bytes);

        assertThatThrownBy(() -> open(configFor(garbage)))
                .isInstanceOfSatisfying(
                        WorldException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining(garbage.toString())
                .hasCauseInstanceOf(SQLException.class);
        assertThat(Files.readAllBytes(garbage)).isEqualTo(bytes);
    }

    @Test
    void openRejectsASqliteDatabaseOfSomethingElse() throws SQLException {
        Path other = dir.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY)");
        }

        assertThatThrownBy(() -> open(configFor(other)))
                .isInstanceOfSatisfying(
                        WorldException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining(other.toString())
                .hasMessageContaining("customers");
    }

    @Test
    void openRejectsANewerSchemaVersion() throws SQLException {
        world.close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dbFile());
                Statement st = c.createStatement()) {
            st.execute(
                    "INSERT INTO schema_version (version, description, applied_at) VALUES (18, 'V18__future.sql', 0)");
        }

        assertThatThrownBy(() -> open(config()))
                .isInstanceOf(SchemaVersionException.class)
                .hasMessageContaining(dbFile().toString())
                .hasMessageContaining("18");
        // the failed open let go of the file: the next attempt fails the same way, not as "in use"
        assertThatThrownBy(() -> open(config())).isInstanceOf(SchemaVersionException.class);
        world = null;
    }

    @Test
    void secondOpenOfTheSameFileInThisJvmFails() {
        assertThatThrownBy(() -> open(config()))
                .isInstanceOfSatisfying(
                        WorldException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining(dbFile().toString())
                .hasMessageContaining("already open");
        // the first world is unaffected
        assertThat(create("still-works").created()).isTrue();
    }

    @Test
    void openFailsWhileAnotherProcessOwnsTheFile() throws Exception {
        world.close();
        world = null;
        Path lockFile = dbFile().resolveSibling("worldflow.db.lock");
        Process holder = startLockHolder(lockFile);
        try {
            assertThatThrownBy(() -> open(config()))
                    .isInstanceOf(WorldException.class)
                    .hasMessageContaining(dbFile().toString())
                    .hasMessageContaining("another process")
                    .hasMessageContaining("pid " + holder.pid());
        } finally {
            holder.getOutputStream().close();
            holder.waitFor(10, TimeUnit.SECONDS);
            holder.destroy();
        }
        world = open(config());
        assertThat(world.runQueries().get("nothing")).isEmpty();
    }

    @Test
    void closeIsIdempotentAndLetsGoOfTheFile() {
        create("r1");
        world.close();
        world.close();
        world = open(config());
        assertThat(world.runQueries().get("r1")).isPresent();
    }

    @Test
    void callsAfterCloseFailClearly() {
        world.close();
        assertThatThrownBy(() -> world.runQueries().get("r1"))
                .isInstanceOf(WorldException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> create("r1"))
                .isInstanceOf(WorldException.class)
                .hasMessageContaining("closed");
        world = null;
    }

    /** Another JVM that locks {@code lockFile} as a world would, until its stdin closes. */
    private static Process startLockHolder(Path lockFile) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classes = Path.of(lockHolderLocation()).toString();
        Process p = new ProcessBuilder(java, "-cp", classes, LockHolder.class.getName(), lockFile.toString())
                .redirectErrorStream(true)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).isEqualTo("locked");
        return p;
    }

    private static java.net.URI lockHolderLocation() {
        try {
            return LockHolder.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Run in a child JVM: holds the lock the way {@link FileOwnership} does. */
    static final class LockHolder {
        public static void main(String[] args) throws IOException {
            try (FileChannel ch = FileChannel.open(
                    Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                if (ch.tryLock() == null) {
                    System.out.println("busy");
                    return;
                }
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(
                        ("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
                System.out.println("locked");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // hold until the parent closes our stdin
                }
            }
        }
    }
}
