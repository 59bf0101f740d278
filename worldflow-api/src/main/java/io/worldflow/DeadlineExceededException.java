package io.worldflow;

import java.time.Instant;

/** The run passed its deadline: no new step starts and the run ends {@link RunStatus#FAILED}. */
public class DeadlineExceededException extends WorldflowException {

    public DeadlineExceededException(String runId, Instant deadline) {
        super("run '" + runId + "' passed its deadline " + deadline);
    }
}
