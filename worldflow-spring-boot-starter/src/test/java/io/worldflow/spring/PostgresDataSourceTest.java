package io.worldflow.spring;

import com.zaxxer.hikari.HikariDataSource;
import io.worldflow.StartOptions;
import io.worldflow.runtime.Worldflow;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The postgres world on the application's own database, found through its DataSource. */
class PostgresDataSourceTest {

    private static final String USER = "shop";
    private static final String PASSWORD = "shop-Pa55word";

    private static EmbeddedPostgres pg;

    @BeforeAll
    static void start() throws Exception {
        pg = EmbeddedPostgres.builder()
                .setDataDirectoryCustomizer(PostgresDataSourceTest::requirePassword)
                .start();
        try (Connection c = pg.getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("GRANT CREATE ON DATABASE postgres TO " + USER);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    /** The application's role must give its password, so the world connects only if it was handed over too. */
    private static void requirePassword(File dataDirectory) {
        Path hba = dataDirectory.toPath().resolve("pg_hba.conf");
        try {
            String rules =
                    "host all " + USER + " 127.0.0.1/32 scram-sha-256\nhost all " + USER + " ::1/128 scram-sha-256\n";
            Files.writeString(hba, rules + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void thePostgresWorldUsesTheApplicationsDataSource() {
        String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
        new ApplicationContextRunner()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health"))
                .withConfiguration(AutoConfigurations.of(WorldflowAutoConfiguration.class))
                .withUserConfiguration(WorldflowAutoConfigurationTest.GreetingApp.class)
                .withPropertyValues(
                        "worldflow.world=postgres",
                        "worldflow.postgres.schema=spring_app",
                        "worldflow.worker.shutdown-grace=1s")
                .withBean(DataSource.class, () -> {
                    HikariDataSource ds = new HikariDataSource();
                    ds.setJdbcUrl(url);
                    ds.setUsername(USER);
                    ds.setPassword(PASSWORD);
                    return ds;
                })
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Worldflow wf = context.getBean(Worldflow.class);
                    assertThat(wf.world().name()).isEqualTo("postgres");
                    assertThat(wf.config().get("worldflow.postgres.url")).contains(url);
                    assertThat(wf.config().get("worldflow.postgres.user")).contains(USER);
                    var run = wf.start(Greetings.NAME, "pat", StartOptions.id("pg-1"));
                    assertThat(run.result(Duration.ofSeconds(30))).isEqualTo("Hello, pat!");
                });
        // the runs are in the application's database, in the configured schema
        try (Connection c = pg.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                var rs = s.executeQuery(
                        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'spring_app'")) {
            rs.next();
            assertThat(rs.getInt(1)).isPositive();
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anExplicitPostgresUrlWinsOverTheDataSource() {
        new ApplicationContextRunner()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health"))
                .withConfiguration(AutoConfigurations.of(WorldflowAutoConfiguration.class))
                .withPropertyValues(
                        "worldflow.world=postgres",
                        "worldflow.postgres.url=jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                        "worldflow.postgres.user=postgres",
                        "worldflow.postgres.schema=explicit",
                        "worldflow.worker.enabled=false")
                .withBean(DataSource.class, () -> {
                    HikariDataSource ds = new HikariDataSource();
                    ds.setJdbcUrl("jdbc:postgresql://localhost:1/nowhere");
                    return ds;
                })
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Worldflow.class).config().get("worldflow.postgres.url"))
                            .hasValueSatisfying(u -> assertThat(u).doesNotContain("nowhere"));
                });
    }
}
