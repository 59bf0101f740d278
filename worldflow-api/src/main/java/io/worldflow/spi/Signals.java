package io.worldflow.spi;

import io.worldflow.Payload;

import java.util.List;

/** Durable, buffered signals: kept until a wait of the run consumes them, in arrival order per name. */
public interface Signals {

    /**
     * Stores the signal and makes the run due for a turn, atomically.
     *
     * @return the signal's id
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     * @throws io.worldflow.RunFinishedException when it has finished
     */
    long send(String runId, String name, Payload payload);

    /** The run's unconsumed signals in arrival order. */
    List<PendingSignal> pending(String runId);
}
