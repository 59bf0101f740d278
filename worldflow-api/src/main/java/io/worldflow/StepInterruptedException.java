package io.worldflow;

/**
 * An attempt of an at-most-once step ({@link StepOptions#atMostOnce()}) began and its worker stopped before the attempt
 * ended (a crash, a kill, a lost lease): whether its effect happened is unknown, so it is not run again. The step fails
 * with this as its recorded cause ({@link StepFailedException#isCausedBy}), for the workflow to check or compensate.
 */
public class StepInterruptedException extends WorldflowException {

    public StepInterruptedException(String message) {
        super(message);
    }
}
