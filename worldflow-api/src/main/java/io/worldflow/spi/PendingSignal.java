package io.worldflow.spi;

import io.worldflow.Payload;

import java.time.Instant;

/**
 * A signal delivered to a run and not yet consumed by a wait.
 *
 * @param id      increases with arrival: consumption follows this order per name
 * @param runId   the run
 * @param name    the signal name
 * @param payload its body
 * @param sentAt  when it arrived
 */
public record PendingSignal(long id, String runId, String name, Payload payload, Instant sentAt) {}
