package io.worldflow.world.local;

import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
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
            try (ResultSet rs = st.executeQuery(
                    "SELECT version, description, applied_at FROM schema_version ORDER BY version")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getString(2)).isEqualTo("V1__init.sql");
                assertThat(rs.getLong(3)).isEqualTo(Micros.of(now()));
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(2);
                assertThat(rs.getString(2)).isEqualTo("V2__signal_keys.sql");
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(3);
                assertThat(rs.getString(2)).isEqualTo("V3__lease_order.sql");
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @Test
    void openRejectsAFileThatIsNotADatabase() throws IOException {
        Path garbage = dir.resolve("garbage.db");
        byte[] bytes = new byte[8192];
        Arrays.fill(bytes, (byte) 'x');
        Files.write(garbage, bytes);

        assertThatThrownBy(() -> open(configFor(garbage)))
                .isInstanceOfSatisfying(WorldException.class, e -> assertThat(e.isTransient()).isFalse())
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
                .isInstanceOfSatisfying(WorldException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining(other.toString())
                .hasMessageContaining("customers");
    }

    @Test
    void openRejectsANewerSchemaVersion() throws SQLException {
        world.close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dbFile());
             Statement st = c.createStatement()) {
            st.execute("INSERT INTO schema_version (version, description, applied_at) VALUES (7, 'V7__future.sql', 0)");
        }

        assertThatThrownBy(() -> open(config()))
                .isInstanceOf(SchemaVersionException.class)
                .hasMessageContaining(dbFile().toString())
                .hasMessageContaining("7");
        // the failed open let go of the file: the next attempt fails the same way, not as "in use"
        assertThatThrownBy(() -> open(config())).isInstanceOf(SchemaVersionException.class);
        world = null;
    }

    @Test
    void secondOpenOfTheSameFileInThisJvmFails() {
        assertThatThrownBy(() -> open(config()))
                .isInstanceOfSatisfying(WorldException.class, e -> assertThat(e.isTransient()).isFalse())
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
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).isEqualTo("locked");
        return p;
    }

    private static java.net.URI lockHolderLocation() {
        try {
            return LockHolder.class.getProtectionDomain().getCodeSource().getLocation().toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Run in a child JVM: holds the lock the way {@link FileOwnership} does. */
    static final class LockHolder {
        public static void main(String[] args) throws IOException {
            try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                if (ch.tryLock() == null) {
                    System.out.println("busy");
                    return;
                }
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n")
                        .getBytes(StandardCharsets.UTF_8)));
                System.out.println("locked");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // hold until the parent closes our stdin
                }
            }
        }
    }
}
