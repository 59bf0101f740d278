package io.worldflow.examples.spring;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.runtime.Worldflow;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import java.net.URI;
import java.time.Duration;

// tag::spring-controller[]
/** Starts an order's run, and answers with a signed URL whose POST approves it. */
@RestController
public class OrderController {

    /** What starting an order answers: its run, and the URL to approve it with (POST {@code true}). */
    public record Started(String runId, URI approveUrl) {}

    /** An order's run as it is now. */
    public record Status(String runId, String status, Receipt receipt) {}

    private final Worldflow worldflow;

    public OrderController(Worldflow worldflow) {
        this.worldflow = worldflow;
    }

    @PostMapping("/orders")
    public Started start(@RequestBody Order order) {
        // idempotent by id: posting the same order twice starts one run
        String runId = worldflow
                .start(OrderWorkflow.NAME, order, StartOptions.id("order-" + order.id()))
                .id();
        // the starter mounts the signal endpoint on this server: signal URLs point back here
        URI root = ServletUriComponentsBuilder.fromCurrentContextPath().build().toUri();
        URI approve = worldflow.signalUrl(root, runId, "approval", Duration.ofDays(2), true);
        return new Started(runId, approve);
    }

    @GetMapping("/orders/{id}")
    public ResponseEntity<Status> status(@PathVariable String id) {
        String runId = "order-" + id;
        return worldflow
                .run(runId)
                .map(RunInfo::status)
                .map(s -> new Status(
                        runId,
                        s.name(),
                        s == RunStatus.COMPLETED
                                ? worldflow.handle(runId, Receipt.class).result(Duration.ZERO)
                                : null))
                .map(ResponseEntity::ok)
                .orElse(ResponseEntity.notFound().build());
    }
}
// end::spring-controller[]
