package io.worldflow.examples.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.worldflow.RunStatus;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample application on a real port: an order's run through its REST API, its signal URL, health and metrics. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "worldflow.local.path=target/orders-test.db")
class OrdersApplicationTest {

    @LocalServerPort
    int port;

    @Autowired
    Worldflow worldflow;

    @Autowired
    PaymentService payments;

    @Autowired
    MeterRegistry meters;

    RestClient http;

    @BeforeEach
    void client() {
        http = RestClient.builder()
                .baseUrl("http://localhost:" + port)
                // answers are read as they are, 4xx included
                .defaultStatusHandler(status -> true, (request, response) -> {})
                .build();
    }

    @Test
    void runsAnOrderToCompletionThroughTheApplication() {
        String id = UUID.randomUUID().toString();
        int chargesBefore = payments.charges();
        Map<?, ?> started = http.post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("id", id, "amountCents", 1200))
                .retrieve()
                .body(Map.class);
        String runId = (String) started.get("runId");
        String approveUrl = (String) started.get("approveUrl");
        assertThat(runId).isEqualTo("order-" + id);
        assertThat(approveUrl).startsWith("http://localhost:" + port + "/signals/" + runId + "/approval?token=");

        await(runId, RunStatus.WAITING);
        // a forged token is refused and delivers nothing
        var forged = http.post()
                .uri(URI.create(approveUrl.substring(0, approveUrl.length() - 2) + "xx"))
                .contentType(MediaType.APPLICATION_JSON)
                .body("true")
                .retrieve()
                .toEntity(String.class);
        assertThat(forged.getStatusCode().value()).isEqualTo(403);
        assertThat(worldflow.run(runId).orElseThrow().status()).isEqualTo(RunStatus.WAITING);
        // the signed URL is answered by this application's own server: the starter mounted the signal endpoint
        var approval = http.post()
                .uri(URI.create(approveUrl))
                .contentType(MediaType.APPLICATION_JSON)
                .body("true")
                .retrieve()
                .toEntity(String.class);
        assertThat(approval.getStatusCode().value()).isEqualTo(202);
        Receipt receipt = worldflow.handle(runId, Receipt.class).result(Duration.ofSeconds(20));
        assertThat(receipt).isEqualTo(new Receipt(id, "ch-" + id + "-1200", true, "parcel-" + id));
        assertThat(payments.charges()).isEqualTo(chargesBefore + 1);

        Map<?, ?> status = http.get().uri("/orders/" + id).retrieve().body(Map.class);
        assertThat(status.get("status")).isEqualTo("COMPLETED");
        assertThat(((Map<?, ?>) status.get("receipt")).get("shipment")).isEqualTo("parcel-" + id);

        // the same URL again: single use
        var again = http.post()
                .uri(URI.create(approveUrl))
                .contentType(MediaType.APPLICATION_JSON)
                .body("true")
                .retrieve()
                .toEntity(String.class);
        assertThat(again.getStatusCode().value()).isEqualTo(409);
    }

    @Test
    void actuatorHealthShowsTheWorldflowComponentUpWithItsDetails() {
        Map<?, ?> health = http.get().uri("/actuator/health").retrieve().body(Map.class);
        Map<?, ?> worldflowHealth = (Map<?, ?>) ((Map<?, ?>) health.get("components")).get("worldflow");
        assertThat(worldflowHealth.get("status")).isEqualTo("UP");
        Map<?, ?> details = (Map<?, ?>) worldflowHealth.get("details");
        assertThat(details.get("world")).isEqualTo("local");
        assertThat(details.get("worker")).isEqualTo("running");
        assertThat(details.get("heldRuns")).isInstanceOf(Number.class);
    }

    @Test
    void countsRunsInTheApplicationsMeterRegistry() {
        String id = UUID.randomUUID().toString();
        http.post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("id", id, "amountCents", 5))
                .retrieve()
                .toBodilessEntity();
        await("order-" + id, RunStatus.WAITING);
        worldflow.signal("order-" + id, "approval", false);
        worldflow.handle("order-" + id, Receipt.class).result(Duration.ofSeconds(20));

        assertThat(worldflow.meterRegistry()).containsSame(meters);
        assertThat(meters.get("worldflow.runs.started")
                        .tag("workflow", OrderWorkflow.NAME)
                        .counter()
                        .count())
                .isPositive();
        assertThat(meters.get("worldflow.runs.ended")
                        .tag("workflow", OrderWorkflow.NAME)
                        .tag("outcome", "completed")
                        .counter()
                        .count())
                .isPositive();
        // and through Actuator's metrics endpoint
        Map<?, ?> metric = http.get()
                .uri("/actuator/metrics/worldflow.runs.started")
                .retrieve()
                .body(Map.class);
        List<?> measurements = (List<?>) metric.get("measurements");
        assertThat(((Number) ((Map<?, ?>) measurements.get(0)).get("value")).doubleValue())
                .isPositive();
    }

    private void await(String runId, RunStatus status) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (worldflow.run(runId).orElseThrow().status() != status) {
            assertThat(System.nanoTime()).as("run %s %s", runId, status).isLessThan(deadline);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
