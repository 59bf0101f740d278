package io.worldflow.cli.internal;

/**
 * A failure the command reports as one line on standard error, with the exit status it ends with ({@link
 * io.worldflow.cli.ExitCodes}).
 */
public final class CliException extends RuntimeException {

    private final int exitCode;

    public CliException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
