package io.worldflow;

import java.time.Duration;

/** A started run, seen from a client. */
public interface RunHandle<O> {

    String id();

    /** The workflow's name. */
    String workflow();

    /** The run's current status (read from the world). */
    RunStatus status();

    /** The run's current state (read from the world). */
    RunInfo info();

    /**
     * Waits for the run to finish and returns its result.
     *
     * @throws WorkflowFailedException    when it failed
     * @throws WorkflowCanceledException  when it was canceled
     * @throws ResultTimeoutException     when it did not finish in time (it goes on)
     */
    O result(Duration timeout);

    /** Requests cancellation; the running worker notices at the run's next primitive. */
    void cancel();
}
