package io.worldflow.world.postgres;

import io.worldflow.WorldException;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Opening the world against databases that refuse, are missing, or come up late. */
class OpeningTest extends PgTestSupport {

    @TempDir
    Path dir;

    @Test
    void aWrongPasswordIsAClearErrorNamingUserAndUrlButNotThePassword() {
        assumeTrue(TestPostgres.shared().isEmbedded(), "needs the embedded server's password role");
        WorldConfig config = config(freshSchema())
                .with(PostgresWorldProvider.USER, TestPostgres.PASSWORD_USER)
                .with(PostgresWorldProvider.PASSWORD, "not-the-password");

        long start = System.nanoTime();
        assertThatThrownBy(() -> open(config))
                .isInstanceOf(WorldException.class)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isFalse())
                .hasMessageContaining(TestPostgres.PASSWORD_USER)
                .hasMessageContaining(TestPostgres.shared().url())
                .hasMessageContaining("28P01")
                .hasMessageContaining(PostgresWorldProvider.PASSWORD)
                .hasMessageNotContaining("not-the-password");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("no waiting for the startup timeout")
                .isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void theRightPasswordOpens() {
        assumeTrue(TestPostgres.shared().isEmbedded(), "needs the embedded server's password role");
        World world = open(config(freshSchema())
                .with(PostgresWorldProvider.USER, TestPostgres.PASSWORD_USER)
                .with(PostgresWorldProvider.PASSWORD, TestPostgres.PASSWORD));

        assertThat(world.eventLog().create(newRun("r1")).created()).isTrue();
    }

    @Test
    void aMissingDatabaseFailsAtOnceAndNotTransiently() {
        String url = TestPostgres.shared().url().replaceFirst("/[^/?]+(\\?|$)", "/no_such_database$1");
        WorldConfig config = config(freshSchema()).with(PostgresWorldProvider.URL, url);

        long start = System.nanoTime();
        assertThatThrownBy(() -> open(config))
                .isInstanceOf(WorldException.class)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isFalse())
                .hasMessageContaining("no_such_database");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void anUnreachablePortFailsTransientlyAfterTheStartupTimeout() {
        String url = "jdbc:postgresql://127.0.0.1:" + TestPostgres.freePort() + "/postgres";
        WorldConfig config = config(freshSchema())
                .with(PostgresWorldProvider.URL, url)
                .with(PostgresWorldProvider.STARTUP_TIMEOUT, "1500ms");

        long start = System.nanoTime();
        assertThatThrownBy(() -> open(config))
                .isInstanceOf(WorldException.class)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isTrue())
                .hasMessageContaining(url)
                .hasMessageContaining(PostgresWorldProvider.STARTUP_TIMEOUT);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(1400)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void aDatabaseThatComesUpWithinTheStartupTimeoutIsWaitedFor() throws Exception {
        int port = TestPostgres.freePort();
        WorldConfig config = TestPostgres.shared()
                .config("late")
                .with(PostgresWorldProvider.URL, "jdbc:postgresql://localhost:" + port + "/postgres")
                .with(PostgresWorldProvider.USER, "postgres")
                .with(PostgresWorldProvider.STARTUP_TIMEOUT, "40s");
        CompletableFuture<World> opening = CompletableFuture.supplyAsync(() -> open(config));
        Thread.sleep(1_000);
        assertThat(opening).as("still waiting for the database").isNotDone();

        EmbeddedPostgres late = TestPostgres.embedded(dir.resolve("late"), port);
        try {
            World world = opening.get(40, TimeUnit.SECONDS);
            assertThat(world.eventLog().create(newRun("r1")).created()).isTrue();
            assertThat(world.eventLog().read("r1", 0)).hasSize(1);
            world.close();
        } finally {
            TestPostgres.closeQuietly(late);
        }
    }
}
