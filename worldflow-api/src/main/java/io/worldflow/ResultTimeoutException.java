package io.worldflow;

import java.time.Duration;

/** Waiting for a run's result took longer than the caller allowed; the run itself goes on. */
public class ResultTimeoutException extends WorldflowException {

    public ResultTimeoutException(String runId, Duration timeout, RunStatus status) {
        super("run '" + runId + "' did not finish within " + timeout + " (status " + status + ")");
    }
}
