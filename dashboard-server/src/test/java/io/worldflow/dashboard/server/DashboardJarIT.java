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
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged jar started the way the README says, {@code java -jar dashboard-server/target/worldflow-dashboard-server.jar},
 * with no JVM flag: it serves, stops on SIGTERM, and the JDK prints no warning on the way (its manifest enables
 * native access for SQLite's library); every world is on its classpath. Runs after the package phase (failsafe),
 * when the jar exists.
 */
class DashboardJarIT {

    private static final Path JAR =
            Path.of(System.getProperty("dashboard.jar", "target/worldflow-dashboard-server.jar"));
    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path dir;

    @Test
    void theExecutableJarStartsWithoutJdkWarningsAndStopsOnSigterm() throws Exception {
        assertThat(JAR).as("the packaged dashboard").exists();
        List<String> cmd = List.of(
                JAVA,
                "-Dworldflow.local.path=" + dir.resolve("jar.db"),
                "-Dworldflow.dashboard.port=0",
                "-jar",
                JAR.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String login = null;
            String line;
            while (login == null && (line = out.readLine()) != null) {
                output.add(line);
                if (line.startsWith("Log in: ")) {
                    login = line.substring("Log in: ".length());
                }
            }
            assertThat(login).as("output: %s", output).isNotNull();
            // no token configured: the one made for this start is in the link, the only place it is shown
            assertThat(output).anyMatch(l -> l.startsWith("No worldflow.dashboard.token was configured"));
            URI root = URI.create(login.substring(0, login.indexOf("/?token=")));
            String token = login.substring(login.indexOf("/?token=") + "/?token=".length());
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> counts = http.send(
                    HttpRequest.newBuilder(URI.create(root + "/api/counts"))
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(counts.statusCode()).isEqualTo(200);
            // the UI's files are read from inside the jar
            for (String page : List.of("/", "/run.html", "/app.js", "/app.css")) {
                HttpResponse<String> file = http.send(
                        HttpRequest.newBuilder(URI.create(root + page)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(file.statusCode()).as(page).isEqualTo(200);
                assertThat(file.body()).as(page).isNotBlank();
            }

            p.toHandle().destroy(); // SIGTERM, leaving the output to read to its end
            while ((line = out.readLine()) != null) {
                output.add(line);
            }
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("output: %s", output).isEqualTo(143);
        } finally {
            p.destroyForcibly();
        }
        assertThat(output)
                .as("JDK warnings")
                .noneMatch(l -> l.contains("WARNING: A restricted method") || l.contains("sun.misc.Unsafe"));
        assertThat(Files.exists(dir.resolve("jar.db")))
                .as("it opened the configured world")
                .isTrue();
    }

    @Test
    void anUnknownWorldFailsListingEveryWorldInTheJar() throws Exception {
        List<String> cmd =
                List.of(JAVA, "-Dworldflow.world=nope", "-Dworldflow.dashboard.port=0", "-jar", JAR.toString());
        Path out = dir.resolve("nope.out");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("it ends by itself").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String output = Files.readString(out);
        assertThat(p.exitValue()).as("output: %s", output).isNotZero();
        assertThat(output).contains("unknown world 'nope'", "worlds found on the classpath: [aws, local, postgres]");
    }

    @Test
    void everyJarOnTheManifestClassPathIsBesideIt() throws Exception {
        String classPath;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            classPath = jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
        }
        List<String> entries = List.of(classPath.trim().split(" +"));
        assertThat(entries)
                .allSatisfy(e -> assertThat(JAR.resolveSibling(e))
                        .as("a Class-Path entry")
                        .isRegularFile());
        assertThat(entries)
                .as("the worlds, their drivers and SDKs, and a logging backend")
                .anyMatch(e -> e.startsWith("lib/world-local-"))
                .anyMatch(e -> e.startsWith("lib/sqlite-jdbc-"))
                .anyMatch(e -> e.startsWith("lib/world-postgres-"))
                .anyMatch(e -> e.startsWith("lib/postgresql-"))
                .anyMatch(e -> e.startsWith("lib/world-aws-"))
                .anyMatch(e -> e.startsWith("lib/dynamodb-"))
                .anyMatch(e -> e.startsWith("lib/sqs-"))
                .anyMatch(e -> e.startsWith("lib/logback-classic-"));
    }
}
