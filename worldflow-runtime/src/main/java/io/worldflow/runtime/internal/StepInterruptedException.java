package io.worldflow.runtime.internal;

/** The recorded error type of an at-most-once step whose attempt was interrupted by a crash. */
final class StepInterruptedException extends RuntimeException {

    private StepInterruptedException() {}
}
