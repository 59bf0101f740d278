package io.worldflow.spi;

import java.util.Objects;

/**
 * A cancellation that an {@link Append} requests of another run, as {@link EventLog#requestCancel} requests it, except
 * that a run that does not exist or has finished is skipped silently.
 *
 * @param runId  the run to cancel
 * @param reason why, or null
 */
public record OutgoingCancel(String runId, String reason) {

    public OutgoingCancel {
        Objects.requireNonNull(runId, "runId");
    }
}
