package io.worldflow;

import java.time.Duration;

/**
 * A started run, seen from a client. A run that continued as new goes on in its successor, and the handle follows it:
 * its status, state, result and cancellation are those of the chain's newest run.
 */
public interface RunHandle<O> {

    /** The id the handle was made for: a chain's first run's id leads to its newest run. */
    String id();

    /** The workflow's name. */
    String workflow();

    /** The current status (read from the world) of the run, or of the newest run of its continue-as-new chain. */
    RunStatus status();

    /** The current state (read from the world) of the run, or of the newest run of its continue-as-new chain. */
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
