package io.worldflow.dashboard.server;

import io.worldflow.RunQuery;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link DashboardMain} as its own process: it prints a login link that works, and stops on SIGTERM. */
class DashboardMainTest {

    @TempDir
    Path dir;

    @Test
    void theStandaloneDashboardServesWithTheConfiguredTokenAndStopsOnSigterm() throws Exception {
        Path db = dir.resolve("standalone.db");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(accessFlags());
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "-Dworldflow.local.path=" + db,
                "-Dworldflow.dashboard.port=0",
                "-Dworldflow.dashboard.token=standalone-token-0123456789",
                DashboardMain.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    output.add(line);
                }
            } catch (IOException e) {
                output.add("(reading failed: " + e + ")");
            }
        });
        try {
            String login = awaitLine(output, p, l -> l.startsWith("Log in: "));
            // a configured token is not printed: the link is the login page, and the operator brings the token
            assertThat(login).endsWith("/login.html with the configured worldflow.dashboard.token");
            assertThat(output).as("JDK warnings").noneMatch(l -> l.contains("WARNING: A restricted method"));
            URI root = URI.create(login.substring("Log in: ".length(), login.indexOf("/login.html")));
            assertThat(root.getHost()).isEqualTo("127.0.0.1");

            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> counts = http.send(
                    HttpRequest.newBuilder(URI.create(root + "/api/counts"))
                            .header("Authorization", "Bearer standalone-token-0123456789")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> anonymous = http.send(
                    HttpRequest.newBuilder(URI.create(root + "/api/counts")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(counts.statusCode()).isEqualTo(200);
            assertThat(counts.body()).contains("\"COMPLETED\":0");
            assertThat(anonymous.statusCode()).isEqualTo(401);

            // a Prometheus scrape behind the same token, with the meters the dashboard reads of the world itself
            HttpResponse<String> metrics = http.send(
                    HttpRequest.newBuilder(URI.create(root + "/metrics"))
                            .header("Authorization", "Bearer standalone-token-0123456789")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> anonymousMetrics = http.send(
                    HttpRequest.newBuilder(URI.create(root + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("text/plain");
            assertThat(metrics.body())
                    .contains("worldflow_runs{status=\"COMPLETED\",world=\"local\"} 0.0")
                    .contains("worldflow_runs_pending_lag_seconds{world=\"local\"} 0.0");
            assertThat(anonymousMetrics.statusCode()).isEqualTo(401);
            // the refusals are logged through the bundled logback, in its format, like every other line
            awaitLine(
                    output, p, l -> l.matches(".* WARN  Auth - refused GET /metrics from .*it needs the role viewer"));

            p.destroy();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(143);
            reader.join(Duration.ofSeconds(10));
            assertThat(output)
                    .as("no line outside logback's format, and never the configured token")
                    .noneMatch(l -> l.startsWith("WARNING:") || l.contains("standalone-token-0123456789"));
        } finally {
            p.destroyForcibly();
        }
        // the world's file was released: another process may own it now
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .build()) {
            assertThat(wf.runs(RunQuery.all()).runs()).isEmpty();
        }
    }

    /** The first line of {@code output} that {@code wanted} accepts, waited for while {@code p} runs. */
    private static String awaitLine(List<String> output, Process p, Predicate<String> wanted)
            throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < end) {
            for (String line : output) {
                if (wanted.test(line)) {
                    return line;
                }
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no such line in the output (process alive: " + p.isAlive() + "): " + output);
    }

    /** This JVM's native-access and unsafe-access flags (the parent pom's worldflow.jvm.flags): the child gets them too. */
    private static List<String> accessFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a ->
                        a.startsWith("--enable-native-access=") || a.startsWith("--sun-misc-unsafe-memory-access="))
                .toList();
    }
}
