package io.worldflow.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command over a PostgreSQL world that workers use at the same time: an embedded PostgreSQL (as world-postgres's
 * tests start it), or the server {@code WORLDFLOW_TEST_POSTGRES_URL} names. The application's worker stays up, so a
 * signal sent by the command is taken at once.
 */
class PostgresCliTest extends CliScenarioTest {

    private static String url;
    private static String user;

    private final String schema =
            "cli_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final String fresh = schema + "_new";

    @Override
    Map<String, String> worldProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("worldflow.world", "postgres");
        p.put("worldflow.postgres.url", url());
        if (user != null) {
            p.put("worldflow.postgres.user", user);
        }
        p.put("worldflow.postgres.schema", schema);
        p.put("worldflow.postgres.pool-size", "4");
        p.put("worldflow.signal.url", "http://127.0.0.1:7070");
        p.put("worldflow.signal.secret", LocalWorldCliTest.SECRET);
        return p;
    }

    @Override
    List<String> connection() {
        return properties(schema);
    }

    private List<String> properties(String inSchema) {
        List<String> args = new ArrayList<>();
        worldProperties().forEach((k, v) -> {
            args.add("-p");
            args.add(k + "=" + (k.equals("worldflow.postgres.schema") ? inSchema : v));
        });
        return args;
    }

    @Override
    boolean live() {
        return true;
    }

    @Override
    String actor() {
        return "cli:" + System.getProperty("user.name");
    }

    @Override
    Map<String, List<String>> extraCommands() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        List<String> inFresh = properties(fresh);
        c.put("migrate", concat(inFresh, "schema", "migrate"));
        c.put("migrateAgain", concat(inFresh, "schema", "migrate"));
        c.put("listFresh", concat(inFresh, "runs", "list"));
        c.put("print", concat(inFresh, "schema", "print"));
        c.put(
                "unreachable",
                List.of(
                        "-p", "worldflow.world=postgres",
                        "-p",
                                "worldflow.postgres.url=jdbc:postgresql://127.0.0.1:" + ServerCliTest.closedPort()
                                        + "/app",
                        "-p", "worldflow.postgres.startup-timeout=1s",
                        "runs", "list"));
        return c;
    }

    private static List<String> concat(List<String> first, String... rest) {
        List<String> out = new ArrayList<>(first);
        out.addAll(List.of(rest));
        return out;
    }

    @Test
    void migratesAndPrintsTheSchema() {
        assertThat(ok("migrate").out())
                .matches("postgres world \\(schema " + fresh + ", table prefix wf_\\): schema at version \\d+\\n");
        assertThat(ok("migrateAgain").out()).isEqualTo(ok("migrate").out());
        assertThat(ok("listFresh").out()).isEqualTo("no runs\n");
        assertThat(ok("print").out())
                .startsWith("-- Worldflow Postgres world: schema version ")
                .contains("CREATE TABLE " + fresh + ".wf_runs", "pg_advisory_xact_lock")
                .endsWith("COMMIT;\n");
    }

    @Test
    void aDatabaseThatCannotBeReachedIsOneLine() {
        assertThat(failed("unreachable", ExitCodes.UNAVAILABLE))
                .startsWith("worldflow: postgres world: could not reach jdbc:postgresql://127.0.0.1:")
                .contains("worldflow.postgres.startup-timeout");
    }

    static synchronized String url() {
        if (url == null) {
            String external = System.getenv("WORLDFLOW_TEST_POSTGRES_URL");
            if (external != null && !external.isBlank()) {
                url = external.strip();
            } else {
                try {
                    EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        try {
                            pg.close();
                        } catch (IOException e) {
                            // the JVM is ending
                        }
                    }));
                    url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
                    user = "postgres";
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot start an embedded PostgreSQL", e);
                }
            }
        }
        return url;
    }
}
