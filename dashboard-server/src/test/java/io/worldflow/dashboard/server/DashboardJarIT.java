package io.worldflow.dashboard.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged jar started the way the README says, {@code java -jar dashboard-server/target/worldflow-dashboard-server.jar},
 * with no JVM flag: it serves, stops on SIGTERM, and the JDK prints no warning on the way (its manifest enables
 * native access for SQLite's library). Runs after the package phase (failsafe), when the jar exists.
 */
class DashboardJarIT {

    @TempDir
    Path dir;

    @Test
    void theExecutableJarStartsWithoutJdkWarningsAndStopsOnSigterm() throws Exception {
        Path jar = Path.of(System.getProperty("dashboard.jar", "target/worldflow-dashboard-server.jar"));
        assertThat(jar).as("the packaged dashboard").exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Dworldflow.local.path=" + dir.resolve("jar.db"),
                "-Dworldflow.dashboard.port=0", "-Dworldflow.dashboard.token=jar-token-0123456789", "-jar", jar.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String login = null;
            String line;
            while (login == null && (line = out.readLine()) != null) {
                output.add(line);
                if (line.startsWith("Log in: ")) {
                    login = line.substring("Log in: ".length());
                }
            }
            assertThat(login).as("output: %s", output).isNotNull();
            URI root = URI.create(login.substring(0, login.indexOf("/?token=")));
            HttpResponse<String> counts = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(root + "/api/counts"))
                    .header("Authorization", "Bearer jar-token-0123456789").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(counts.statusCode()).isEqualTo(200);

            p.toHandle().destroy();                            // SIGTERM, leaving the output to read to its end
            while ((line = out.readLine()) != null) {
                output.add(line);
            }
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("output: %s", output).isEqualTo(143);
        } finally {
            p.destroyForcibly();
        }
        assertThat(output).as("JDK warnings")
                .noneMatch(l -> l.contains("WARNING: A restricted method") || l.contains("sun.misc.Unsafe"));
        assertThat(Files.exists(dir.resolve("jar.db"))).as("it opened the configured world").isTrue();
    }
}
