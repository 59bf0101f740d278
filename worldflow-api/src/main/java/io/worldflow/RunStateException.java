package io.worldflow;

/**
 * The run is not in a state that allows what was asked: retrying a run that has not failed, or acting on a
 * run whose log changed since it was read.
 */
public class RunStateException extends WorldflowException {

    public RunStateException(String message) {
        super(message);
    }

    /** A retry of a run that has not failed. */
    public static RunStateException notFailed(String runId, RunStatus status) {
        return new RunStateException(
                "cannot retry run '" + runId + "': it is " + status + ", and only a FAILED run can be retried");
    }

    /** A retry of a run whose log grew since it was read. */
    public static RunStateException logMoved(String runId, long length, long expected) {
        return new RunStateException("cannot retry run '" + runId + "': its log has " + length + " events, not the "
                + expected + " it was read with");
    }
}
