package io.worldflow.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * Ends a worker's turn on a run: the lease is completed, and the run's next turn is due at
 * {@code wakeAt} (a timer, a retry's backoff, a signal wait's time limit), or not at all when null.
 * A turn requested meanwhile (a signal, a cancellation) is never lost: it makes the run due at once.
 */
public record TurnEnd(Lease lease, Instant wakeAt) {

    public TurnEnd {
        Objects.requireNonNull(lease, "lease");
    }
}
