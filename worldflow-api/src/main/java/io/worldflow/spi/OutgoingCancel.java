package io.worldflow.spi;

import java.util.Objects;

/**
 * A cancellation that an {@link Append} requests of another run, as {@link EventLog#requestCancel} requests it, except
 * that a run that does not exist or has finished is skipped silently.
 *
 * @param runId     the run to cancel
 * @param reason    why, or null
 * @param terminate whether the run is to be terminated (see {@link EventLog#requestCancel(String, String, boolean)})
 */
public record OutgoingCancel(String runId, String reason, boolean terminate) {

    public OutgoingCancel {
        Objects.requireNonNull(runId, "runId");
    }

    /** A cancellation, which the run is told of at its next primitive. */
    public OutgoingCancel(String runId, String reason) {
        this(runId, reason, false);
    }
}
