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
 * @param actor   who sent it ({@link io.worldflow.Actors}), or null when not known
 */
public record PendingSignal(long id, String runId, String name, Payload payload, Instant sentAt, String actor) {

    /** A signal whose sender is not known. */
    public PendingSignal(long id, String runId, String name, Payload payload, Instant sentAt) {
        this(id, runId, name, payload, sentAt, null);
    }
}
