package io.worldflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the command accepts, run in this JVM: each bad input ends with its exit status and one line on standard error
 * naming what was wrong, before any world is opened; and the commands that read only configuration and the classpath.
 */
class CliInputTest {

    @TempDir
    Path tmp;

    /** A command that failed with {@code exit} and said so in one line, printing nothing else. */
    static String refused(int exit, String... args) {
        CliResult r = InProcessCli.run(args);
        assertThat(r.exit()).as("%s", r).isEqualTo(exit);
        assertThat(r.errLines()).as("%s", r).hasSize(1);
        assertThat(r.out()).as("%s", r).isEmpty();
        return r.errLines()[0];
    }

    static CliResult ok(String... args) {
        CliResult r = InProcessCli.run(args);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.err()).as("%s", r).isEmpty();
        return r;
    }

    @Test
    void everyHelpEndsWithTheExitCodes() {
        for (String[] args : List.of(
                new String[] {"--help"},
                new String[] {"runs", "list", "--help"},
                new String[] {"schedules", "pause", "-h"},
                new String[] {"help", "verify"})) {
            assertThat(ok(args).out())
                    .as(String.join(" ", args))
                    .contains("Exit codes:", "  0  ok", "  1  a problem found", "  2  bad usage", "  3  not found")
                    .contains("  4  the world or the server cannot be reached");
        }
        assertThat(ok("--help").out()).contains("runs", "signal-url", "schedules", "schema", "worlds");
    }

    @Test
    void printsItsVersion() {
        assertThat(ok("--version").out()).startsWith("worldflow 0.1.0-SNAPSHOT\nJava ");
    }

    @Test
    void withoutACommandPrintsWhatItCanDo() {
        CliResult r = InProcessCli.run();
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("Usage: worldflow").contains("Commands:");
        assertThat(InProcessCli.run("runs").err()).startsWith("Usage: worldflow runs");
    }

    @Test
    void badUsageIsOneLineWithWhereTheHelpIs() {
        assertThat(refused(ExitCodes.USAGE, "launch"))
                .isEqualTo("worldflow: Unmatched argument at index 0: 'launch' (see 'worldflow --help')");
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "--colour"))
                .isEqualTo("worldflow: Unknown option: '--colour' (see 'worldflow runs list --help')");
        assertThat(refused(ExitCodes.USAGE, "signal", "run-1"))
                .isEqualTo("worldflow: Missing required parameter: 'NAME' (see 'worldflow signal --help')");
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "--status", "DONE"))
                .startsWith(
                        "worldflow: Invalid value for option '--status' (STATUS): expected one of [PENDING, RUNNING,");
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "--created-after", "yesterday"))
                .contains("'yesterday' is not an instant such as 2026-11-27T10:00:00Z");
        assertThat(refused(ExitCodes.USAGE, "signal-url", "r", "n", "--ttl", "soon"))
                .contains("'soon' is not a duration such as PT1H, 30m or 2d");
    }

    @Test
    void badFiltersAreNamed() {
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "--limit", "0"))
                .isEqualTo("worldflow: --limit must be 1..1000, was 0");
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "--attr", "customer"))
                .startsWith("worldflow: --attr 'customer' is not name:value or name:type:value");
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "--attr", "total:long:many"))
                .isEqualTo("worldflow: --attr 'total:long:many' is refused: 'many' is not a long (a whole number)");
        assertThat(refused(ExitCodes.USAGE, "runs", "export"))
                .startsWith("worldflow: name the runs to export: their ids, or filters");
        assertThat(refused(ExitCodes.USAGE, "runs", "export", "run-1", "--all"))
                .isEqualTo("worldflow: give either run ids or filters (--all), not both");
        assertThat(refused(ExitCodes.USAGE, "verify")).contains("give run ids, or --all");
        assertThat(refused(ExitCodes.USAGE, "verify", "run-1", "--all")).contains("give run ids, or --all");
        assertThat(refused(ExitCodes.USAGE, "verify", "run-1", "--status", "FAILED"))
                .isEqualTo("worldflow: filters go with --all");
    }

    @Test
    void aSignalsPayloadMustBeJson() throws Exception {
        assertThat(refused(ExitCodes.USAGE, "signal", "run-1", "approval", "--json", "{approved: true}"))
                .startsWith("worldflow: --json is not valid JSON: Unexpected character ('a'");
        assertThat(refused(ExitCodes.USAGE, "signal", "run-1", "approval", "--json", "{} {}"))
                .startsWith("worldflow: --json is not valid JSON: ");
        Path file = tmp.resolve("payload.json");
        assertThat(refused(ExitCodes.USAGE, "signal", "run-1", "approval", "--json-file", file.toString()))
                .isEqualTo("worldflow: --json-file " + file + ": no such file");
        Files.writeString(file, "[1, 2,");
        assertThat(refused(ExitCodes.USAGE, "signal", "run-1", "approval", "--json-file", file.toString()))
                .startsWith("worldflow: --json-file " + file + " is not valid JSON: ");
        assertThat(refused(ExitCodes.USAGE, "signal", "r", "n", "--json", "{}", "--json-file", file.toString()))
                .isEqualTo("worldflow: give the payload with --json or --json-file, not both");
    }

    @Test
    void badConfigurationIsNamed() {
        assertThat(refused(ExitCodes.USAGE, "-p", "world=local", "runs", "list"))
                .isEqualTo("worldflow: configuration keys start with 'worldflow.', not 'world'");
        assertThat(refused(ExitCodes.USAGE, "runs", "list", "-p", "worldflow.world=mars"))
                .startsWith("worldflow: unknown world 'mars' (worldflow.world)");
        Path missing = tmp.resolve("app.db");
        assertThat(refused(ExitCodes.UNAVAILABLE, "runs", "list", "-p", "worldflow.local.path=" + missing))
                .startsWith("worldflow: no local world at " + missing + " (worldflow.local.path)");
        assertThat(refused(ExitCodes.USAGE, "--server", "localhost:7070", "runs", "list"))
                .startsWith("worldflow: --server must be the dashboard's http or https URL");
    }

    @Test
    void anEmptyFileOrAnotherApplicationsDatabaseIsRefusedAndLeftAsItWas() throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty.db"));
        assertThat(refused(ExitCodes.UNAVAILABLE, "runs", "list", "-p", "worldflow.local.path=" + empty))
                .startsWith("worldflow: no local world at " + empty + " (worldflow.local.path): the file is empty");
        assertThat(Files.size(empty)).isZero();

        Path other = tmp.resolve("crm.db");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + other);
                java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE TABLE customers (id INTEGER)");
        }
        byte[] before = Files.readAllBytes(other);
        assertThat(refused(ExitCodes.UNAVAILABLE, "runs", "list", "-p", "worldflow.local.path=" + other))
                .contains("is a SQLite database of something else (it has tables [customers]");
        assertThat(Files.readAllBytes(other))
                .as("not switched to write-ahead logging")
                .isEqualTo(before);
        try (var files = Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("empty.db", "crm.db");
        }
    }

    @Test
    void aRunIdThatBeginsWithADashIsTakenAsTheRunsId() {
        Path file = tmp.resolve("dash.db");
        try (io.worldflow.runtime.Worldflow wf = io.worldflow.runtime.Worldflow.builder()
                .property("worldflow.local.path", file.toString())
                .build()) {
            wf.submit("anything", "x", io.worldflow.StartOptions.id("-P7_Tht_2BTHTDNTV9DjJH"));
        }
        String out = ok("runs", "show", "-P7_Tht_2BTHTDNTV9DjJH", "-p", "worldflow.local.path=" + file)
                .out();
        assertThat(out).contains("-P7_Tht_2BTHTDNTV9DjJH", "anything");
        assertThat(refused(ExitCodes.NOT_FOUND, "runs", "show", "-nope", "-p", "worldflow.local.path=" + file))
                .contains("-nope");
    }

    @Test
    void serverOptionsGoBeforeOrAfterTheCommand() {
        String url = "http://127.0.0.1:" + ServerCliTest.closedPort();
        assertThat(refused(ExitCodes.UNAVAILABLE, "--server", url, "runs", "list"))
                .isEqualTo("worldflow: cannot reach the server at " + url + ": connection refused");
        assertThat(refused(ExitCodes.UNAVAILABLE, "runs", "--server", url, "show", "r"))
                .isEqualTo("worldflow: cannot reach the server at " + url + ": connection refused");
        assertThat(refused(ExitCodes.UNAVAILABLE, "cancel", "r", "--server", url, "--token", "t"))
                .isEqualTo("worldflow: cannot reach the server at " + url + ": connection refused");
    }

    @Test
    void verboseAddsTheStackTrace() {
        String url = "http://127.0.0.1:" + ServerCliTest.closedPort();
        CliResult r = InProcessCli.run("--verbose", "--server", url, "runs", "list");
        assertThat(r.exit()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(r.err()).contains("java.net.ConnectException", "\tat ");
        assertThat(r.errLines()[r.errLines().length - 1]).startsWith("worldflow: cannot reach the server at ");
    }

    @Test
    void printsTheLocalWorldsMigrations() {
        String sql = ok("schema", "print").out();
        assertThat(sql)
                .startsWith("-- Worldflow local world (SQLite): schema version ")
                .contains("-- V1__init.sql\n", "CREATE TABLE runs", "-- V15__search_attributes.sql\n");
        assertThat(sql.indexOf("-- V2__")).isLessThan(sql.indexOf("-- V10__"));
    }

    @Test
    void printsThePostgresWorldsScriptForItsSchema() {
        String sql = ok("schema", "print", "-p", "worldflow.world=postgres", "-p", "worldflow.postgres.schema=orders")
                .out();
        assertThat(sql).contains("CREATE SCHEMA IF NOT EXISTS orders;", "CREATE TABLE orders.wf_runs");
        assertThat(refused(
                        ExitCodes.USAGE,
                        "schema",
                        "print",
                        "-p",
                        "worldflow.world=postgres",
                        "-p",
                        "worldflow.postgres.schema=Bad Name"))
                .contains("worldflow.postgres.schema");
    }

    @Test
    void migratesANewLocalWorldThatThenListsNoRuns() {
        Path db = tmp.resolve("new.db");
        assertThat(ok("schema", "migrate", "-p", "worldflow.local.path=" + db).out())
                .matches("local world at " + db + ": schema at version \\d+\n");
        assertThat(ok("runs", "list", "-p", "worldflow.local.path=" + db).out()).isEqualTo("no runs\n");
        assertThat(ok("schedules", "list", "-p", "worldflow.local.path=" + db).out())
                .isEqualTo("no schedules\n");
        assertThat(refused(ExitCodes.NOT_FOUND, "runs", "export", "gone", "-p", "worldflow.local.path=" + db))
                .isEqualTo("worldflow: run 'gone' does not exist");
        assertThat(refused(ExitCodes.NOT_FOUND, "verify", "gone", "-p", "worldflow.local.path=" + db))
                .isEqualTo("worldflow: run 'gone' does not exist");
    }

    @Test
    void readsAPropertiesFileWhichOptionsOverride() throws Exception {
        Path config = tmp.resolve("worldflow.properties");
        Path db = tmp.resolve("from-file.db");
        Files.writeString(config, "worldflow.local.path=" + db + "\nother.key=ignored\n");
        assertThat(ok("--config", config.toString(), "schema", "migrate").out()).startsWith("local world at " + db);
        Path other = tmp.resolve("from-option.db");
        assertThat(ok("schema", "migrate", "--config", config.toString(), "-p", "worldflow.local.path=" + other)
                        .out())
                .startsWith("local world at " + other);
        assertThat(refused(
                        ExitCodes.USAGE,
                        "--config",
                        tmp.resolve("none.properties").toString(),
                        "runs",
                        "list"))
                .isEqualTo("worldflow: --config " + tmp.resolve("none.properties") + ": no such file");
    }

    @Test
    void listsTheWorldsOnTheClasspathWithTheirKeys() throws Exception {
        String out = ok("worlds").out();
        assertThat(out)
                .contains("local  (configured: worldflow.world)\n", "\npostgres\n", "aws\n")
                .contains("  worldflow.local.path ", "  worldflow.postgres.url ", "  worldflow.aws.region ");
        JsonNode json = new ObjectMapper().readTree(ok("worlds", "--json").out());
        List<String> names = new ArrayList<>();
        json.path("worlds").forEach(w -> names.add(w.path("name").asText()));
        assertThat(names).containsExactly("aws", "local", "postgres");
        assertThat(json.path("configured").asText()).isEqualTo("local");
        assertThat(ok("worlds", "-p", "worldflow.world=local").out())
                .contains("local  (configured: worldflow.world)\n");
        io.worldflow.runtime.Worldflow.builder()
                .property("worldflow.local.path", tmp.resolve("x.db").toString())
                .build()
                .close();
        assertThat(refused(
                        ExitCodes.USAGE,
                        "runs",
                        "list",
                        "--created-after",
                        "2026-12-01",
                        "--created-before",
                        "2026-11-01",
                        "-p",
                        "worldflow.local.path=" + tmp.resolve("x.db")))
                .contains("createdAfter (2026-12-01T00:00:00Z) must be before createdBefore (2026-11-01T00:00:00Z)");
        CliResult mars = InProcessCli.run("worlds", "-p", "worldflow.world=mars");
        assertThat(mars.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(mars.errLines())
                .containsExactly(
                        "worldflow: unknown world 'mars' (worldflow.world); worlds found on the classpath: [aws, local, postgres]");
    }
}
