package io.worldflow.cli;

import io.worldflow.dashboard.Dashboard;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.dashboard.DashboardToken;
import io.worldflow.dashboard.Role;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command through a running dashboard ({@code --server}), the way in to a local world whose file the application
 * owns: the application here runs its worker and the dashboard, so what the command asks is carried out at once.
 */
class ServerCliTest extends CliScenarioTest {

    static final String TOKEN = "cli-admin-token-0123456789abcdef";
    static final String VIEWER_TOKEN = "cli-viewer-token-0123456789abcdef";
    static final String SECRET = "signal-secret-0123456789abcdef-0123456789";

    private Dashboard dashboard;
    private CliResult tokenFromEnvironment;

    @Override
    Map<String, String> worldProperties() {
        return Map.of("worldflow.local.path", dir.resolve("app.db").toString(), "worldflow.signal.secret", SECRET);
    }

    @Override
    List<String> connection() {
        if (dashboard == null) {
            dashboard = Dashboard.start(
                    wf,
                    new DashboardSettings(
                            "127.0.0.1",
                            0,
                            TOKEN,
                            false,
                            false,
                            64 * 1024,
                            List.of(new DashboardToken("vera", Role.VIEWER, VIEWER_TOKEN))));
        }
        return List.of("--server", url(), "--token", TOKEN);
    }

    String url() {
        return dashboard.url().toString();
    }

    @Override
    boolean live() {
        return true;
    }

    @Override
    String actor() {
        return "dashboard:admin";
    }

    @Override
    Map<String, List<String>> extraCommands() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        c.put("wrongToken", List.of("--server", url(), "--token", "not-the-token-0123456789", "runs", "list"));
        c.put("noToken", List.of("runs", "list", "--server", url()));
        c.put("viewerList", List.of("--server", url(), "--token", VIEWER_TOKEN, "runs", "list"));
        c.put(
                "viewerSignal",
                List.of("--server", url(), "--token", VIEWER_TOKEN, "signal", "nap-1", "wake", "--json", "{}"));
        c.put(
                "viewerQueueSet",
                List.of("--server", url(), "--token", VIEWER_TOKEN, "queues", "set", "ledger", "--concurrency", "9"));
        c.put("unreachable", List.of("--server", "http://127.0.0.1:" + closedPort(), "runs", "list"));
        c.put("notHttp", List.of("--server", "ftp://127.0.0.1", "runs", "list"));
        c.put("deleteSchedule", cli("schedules", "delete", "hourly"));
        c.put("schemaViaServer", cli("schema", "print"));
        return c;
    }

    @Override
    void afterCommands() throws Exception {
        tokenFromEnvironment =
                ChildCli.run(Map.of("WORLDFLOW_TOKEN", TOKEN), List.of(), "--server", url(), "runs", "show", "greet-1");
    }

    @Override
    void close() {
        if (dashboard != null) {
            dashboard.close();
        }
        super.close();
    }

    @Test
    void refusedTokensAndUnreachableServersAreSaidInOneLine() {
        assertThat(failed("wrongToken", ExitCodes.UNAVAILABLE))
                .isEqualTo("worldflow: the server at " + url() + " refused the token: the dashboard token is wrong");
        assertThat(failed("noToken", ExitCodes.UNAVAILABLE))
                .isEqualTo("worldflow: the server at " + url() + " needs a token: give --token or set WORLDFLOW_TOKEN");
        assertThat(failed("viewerSignal", ExitCodes.UNAVAILABLE))
                .startsWith("worldflow: the server at " + url() + " refused: 'vera' has the role viewer;");
        assertThat(failed("viewerQueueSet", ExitCodes.UNAVAILABLE))
                .startsWith("worldflow: the server at " + url() + " refused: 'vera' has the role viewer;");
        assertThat(failed("unreachable", ExitCodes.UNAVAILABLE)).startsWith("worldflow: cannot reach the server at ");
        assertThat(failed("notHttp", ExitCodes.USAGE)).startsWith("worldflow: --server must be the dashboard's http");
    }

    @Test
    void aViewerReadsAndTheTokenMayComeFromTheEnvironment() {
        assertThat(ok("viewerList").out()).contains("greet-1");
        assertThat(tokenFromEnvironment.exit()).as("%s", tokenFromEnvironment).isZero();
        assertThat(tokenFromEnvironment.out()).containsPattern("status +COMPLETED");
    }

    @Test
    void whatTheApiDoesNotOfferIsRefused() {
        assertThat(failed("deleteSchedule", ExitCodes.USAGE)).contains("a dashboard does not delete schedules");
        assertThat(failed("schemaViaServer", ExitCodes.USAGE)).contains("takes no --server");
    }

    static int closedPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
