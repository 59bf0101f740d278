package io.worldflow.examples.spring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application as it ships: Spring Boot's executable jar, a jar of jars, run with {@code java -jar}. Resources are
 * read differently there than from a class path of folders and jars, which the other tests use: an order runs through
 * the application's own API and signal URL, Actuator reports Worldflow up, and the embedded dashboard serves its pages
 * and API from inside the nested jar, logging the login link with the token made for this start; Prometheus scrapes the
 * application's meters through Actuator and through the dashboard.
 */
class ExecutableJarIT {

    static final Path JAR = Path.of(System.getProperty("app.jar"));
    static final Pattern SERVER_PORT = Pattern.compile("Tomcat started on port (\\d+)");
    static final Pattern LOGIN = Pattern.compile("in the login link: (http://127\\.0\\.0\\.1:\\d+)/\\?token=(\\S+)");

    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    @Test
    void theExecutableJarRunsAnOrderReportsHealthAndServesTheDashboard() throws Exception {
        assertThat(JAR).as("the repackaged application").exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-jar",
                        JAR.toString(),
                        "--server.port=0",
                        "--worldflow.local.path=" + dir.resolve("orders.db"),
                        "--worldflow.dashboard.enabled=true",
                        "--worldflow.dashboard.port=0")
                .redirectErrorStream(true)
                .start();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread.ofPlatform().daemon().start(() -> read(p, output));
        try {
            String app = "http://127.0.0.1:" + await(output, p, SERVER_PORT).group(1);
            Matcher login = await(output, p, LOGIN);
            String dashboard = login.group(1);
            String token = login.group(2);

            // an order, approved through the signed URL the application answers with
            String id = UUID.randomUUID().toString();
            JsonNode started = send(HttpRequest.newBuilder(URI.create(app + "/orders"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"" + id + "\",\"amountCents\":700}")));
            URI approve = URI.create(started.path("approveUrl").asText());
            awaitStatus(app, id, "WAITING");
            HttpResponse<String> approved = http.send(
                    HttpRequest.newBuilder(approve)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("true"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(202);
            JsonNode done = awaitStatus(app, id, "COMPLETED");
            assertThat(done.path("receipt").path("shipment").asText()).isEqualTo("parcel-" + id);

            JsonNode health = send(HttpRequest.newBuilder(URI.create(app + "/actuator/health")));
            assertThat(health.path("components")
                            .path("worldflow")
                            .path("status")
                            .asText())
                    .isEqualTo("UP");

            // the dashboard's pages and scripts come from inside the nested jar
            for (String page : List.of("/", "/run.html", "/app.js", "/app.css")) {
                HttpResponse<String> file = http.send(
                        HttpRequest.newBuilder(URI.create(dashboard + page)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(file.statusCode()).as(page).isEqualTo(200);
                assertThat(file.body()).as(page).isNotBlank();
            }
            JsonNode run = send(HttpRequest.newBuilder(URI.create(dashboard + "/api/runs/order-" + id))
                    .header("Authorization", "Bearer " + token));
            assertThat(run.path("status").asText()).isEqualTo("COMPLETED");

            // the application's registry, scraped by Prometheus through Actuator and through the dashboard
            String completed = "worldflow_runs_ended_total{outcome=\"completed\",queue=\"default\","
                    + "workflow=\"order.spring.v1\",world=\"local\"} 1.0";
            assertThat(text(HttpRequest.newBuilder(URI.create(app + "/actuator/prometheus"))))
                    .contains(completed);
            assertThat(text(HttpRequest.newBuilder(URI.create(dashboard + "/metrics"))
                            .header("Authorization", "Bearer " + token)))
                    .contains(completed);

            p.destroy(); // SIGTERM: the context closes, the worker and the dashboard with it
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("exited on SIGTERM").isTrue();
            assertThat(p.exitValue()).as("output: %s", output).isEqualTo(143);
        } finally {
            p.destroyForcibly();
        }
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return json.readTree(text(request));
    }

    private String text(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("%s: %s", request.build().uri(), response.body())
                .isEqualTo(200);
        return response.body();
    }

    private JsonNode awaitStatus(String app, String id, String status) throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < end) {
            last = send(HttpRequest.newBuilder(URI.create(app + "/orders/" + id)));
            if (status.equals(last.path("status").asText())) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("order " + id + " did not become " + status + ": " + last);
    }

    private static Matcher await(List<String> output, Process p, Pattern wanted) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (System.nanoTime() < end) {
            for (String line : output) {
                Matcher m = wanted.matcher(line);
                if (m.find()) {
                    return m;
                }
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no line matching " + wanted + " (alive: " + p.isAlive() + "): " + output);
    }

    private static void read(Process p, List<String> output) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                output.add(line);
            }
        } catch (IOException e) {
            output.add("(reading the output failed: " + e + ")");
        }
    }
}
