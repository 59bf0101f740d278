package io.worldflow.spi;

import io.worldflow.Payload;
import io.worldflow.event.WorkflowStarted;

import java.time.Instant;
import java.util.Objects;

/**
 * A run to create.
 *
 * @param runId       its id (the idempotency key)
 * @param workflow    the workflow name
 * @param input       the input payload
 * @param createdAt   now
 * @param availableAt its first turn is due at this instant (a delayed start is later than {@code createdAt})
 * @param deadline    null for none
 * @param queue       the queue its turns go to
 * @param priority    higher first
 */
public record NewRun(
        String runId,
        String workflow,
        Payload input,
        Instant createdAt,
        Instant availableAt,
        Instant deadline,
        String queue,
        int priority) {

    public NewRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(workflow, "workflow");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(availableAt, "availableAt");
        Objects.requireNonNull(queue, "queue");
    }

    /** The first event of its log, which {@link EventLog#create} writes at seq 0. */
    public WorkflowStarted startedEvent() {
        return new WorkflowStarted(runId, 0, createdAt, workflow, input, deadline);
    }
}
