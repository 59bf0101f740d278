package io.worldflow.cli;

import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command over a local world's file, which belongs to one process at a time: the application writes its runs and
 * closes, the command reads and acts on the file, and the application's worker, opened again, carries out what the
 * command asked.
 */
class LocalWorldCliTest extends CliScenarioTest {

    static final String SECRET = "signal-secret-0123456789abcdef-0123456789";

    private CliResult tamperedAll;
    private CliResult tamperedOne;

    Path db() {
        return dir.resolve("app.db");
    }

    @Override
    Map<String, String> worldProperties() {
        return Map.of("worldflow.local.path", db().toString());
    }

    @Override
    List<String> connection() {
        return List.of(
                "-p", "worldflow.local.path=" + db(),
                "-p", "worldflow.signal.url=http://127.0.0.1:7070",
                "-p", "worldflow.signal.secret=" + SECRET);
    }

    @Override
    boolean live() {
        return false;
    }

    @Override
    String actor() {
        return "cli:" + System.getProperty("user.name");
    }

    @Override
    Map<String, List<String>> extraCommands() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        c.put(
                "signalUrlUnconfigured",
                List.of("-p", "worldflow.local.path=" + db(), "signal-url", "approval-1", "approval", "--ttl", "PT1H"));
        c.put("noSuchFile", List.of("-p", "worldflow.local.path=" + dir.resolve("missing.db"), "runs", "list"));
        c.put("unknownWorld", List.of("-p", "worldflow.world=mars", "runs", "list"));
        return c;
    }

    /** A byte of nap-1's stored log changed behind the world's back, then checked. */
    @Override
    void afterCommands() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE event_log SET events = replace(events, 'zzz', 'zzy') WHERE run_id = 'nap-1' AND seq = 0")) {
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        // greet-1's links and head removed: the chain checks, but covers none of its records
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
                PreparedStatement links =
                        c.prepareStatement("UPDATE event_log SET link = NULL WHERE run_id = 'greet-1'");
                PreparedStatement head = c.prepareStatement("UPDATE runs SET head = NULL WHERE run_id = 'greet-1'")) {
            assertThat(links.executeUpdate()).isPositive();
            assertThat(head.executeUpdate()).isEqualTo(1);
        }
        tamperedAll = ChildCli.run(List.of("-Dworldflow.local.path=" + db()), "verify", "--all");
        tamperedOne = ChildCli.run(List.of(), "-p", "worldflow.local.path=" + db(), "verify", "nap-1", "--json");
    }

    @Test
    void findsALogChangedBehindTheWorldsBack() {
        assertThat(tamperedAll.exit()).as("%s", tamperedAll).isEqualTo(ExitCodes.PROBLEM);
        assertThat(tamperedAll.err()).isEmpty();
        assertThat(tamperedAll.out())
                .containsPattern("run nap-1: chain BROKEN at seq 0: ")
                .containsPattern("checked \\d+ runs: 1 broken; 1 run's chain does not begin at its first event, so the"
                        + " records before it are not covered \\(written before the chain, or their links removed\\)");
        assertThat(tamperedOne.exit()).isEqualTo(ExitCodes.PROBLEM);
        assertThat(tamperedOne.out()).contains("\"intact\" : false", "\"brokenAt\" : 0");
    }

    @Test
    void refusesAFileAnotherProcessOwnsSayingSoInOneLine() throws Exception {
        // wf, the application, has the file open now
        CliResult r = ChildCli.run(List.of("-Dworldflow.local.path=" + db()), "runs", "list");
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(r.errLines()).as("%s", r).hasSize(1);
        assertThat(r.err()).startsWith("worldflow: local world: database ").contains("is in use by another process");
    }

    @Test
    void saysWhatConfigurationIsMissing() {
        assertThat(failed("signalUrlUnconfigured", ExitCodes.USAGE)).contains(Worldflow.SIGNAL_URL);
        assertThat(failed("noSuchFile", ExitCodes.UNAVAILABLE))
                .startsWith("worldflow: no local world at " + dir.resolve("missing.db"));
        assertThat(failed("unknownWorld", ExitCodes.USAGE))
                .startsWith("worldflow: unknown world 'mars' (worldflow.world); worlds found on the classpath: ")
                .contains("local", "postgres", "aws");
    }
}
