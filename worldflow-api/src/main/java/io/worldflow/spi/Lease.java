package io.worldflow.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * A worker's claim on a run's turn until {@code expiresAt}. After that the turn is delivered again,
 * to any worker; the old holder's writes are fenced off by the log's expected sequence.
 *
 * @param runId      the run
 * @param token      identifies this claim; a stale token's complete/extend/release does nothing
 * @param queue      the queue it came from
 * @param expiresAt  when it lapses unless extended
 * @param deliveries how many times this turn has been delivered (1 the first time)
 */
public record Lease(String runId, String token, String queue, Instant expiresAt, int deliveries) {

    public Lease {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    public Lease withExpiresAt(Instant value) {
        return new Lease(runId, token, queue, value, deliveries);
    }
}
