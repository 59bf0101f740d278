package io.worldflow;

/**
 * The run is not in a state that allows what was asked: retrying a run that has not failed, or acting on a
 * run whose log changed since it was read.
 */
public class RunStateException extends WorldflowException {

    public RunStateException(String message) {
        super(message);
    }
}
