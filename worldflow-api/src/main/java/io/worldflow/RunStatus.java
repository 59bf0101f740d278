package io.worldflow;

/** Where a run stands. The last three are terminal: nothing changes a finished run. */
public enum RunStatus {
    /** Created, not yet picked up by a worker (or delayed until its start time). */
    PENDING,
    /** A worker is executing it, or it is ready for the next worker turn. */
    RUNNING,
    /** Waiting for a durable timer (a sleep, or the backoff before a step's next attempt). */
    SLEEPING,
    /** Waiting for a signal. */
    WAITING,
    COMPLETED,
    FAILED,
    CANCELED;

    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == CANCELED;
    }
}
