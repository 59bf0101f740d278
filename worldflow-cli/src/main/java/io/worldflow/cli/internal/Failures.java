package io.worldflow.cli.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStateException;
import io.worldflow.ScheduleNotFoundException;
import io.worldflow.SerializationException;
import io.worldflow.UnknownWorkflowException;
import io.worldflow.WorldException;
import io.worldflow.cli.ExitCodes;

import java.io.IOException;
import java.io.UncheckedIOException;

/** What an exception means to a user of the command: its exit status, and the one line that says what went wrong. */
public final class Failures {

    private Failures() {}

    /** The exit status a failure ends the command with. */
    public static int exitCode(Throwable e) {
        return switch (e) {
            case CliException c -> c.exitCode();
            case RunNotFoundException x -> ExitCodes.NOT_FOUND;
            case ScheduleNotFoundException x -> ExitCodes.NOT_FOUND;
            case RunStateException x -> ExitCodes.PROBLEM;
            case ConfigurationException x -> ExitCodes.USAGE;
            case UnknownWorkflowException x -> ExitCodes.USAGE;
            case SerializationException x -> ExitCodes.USAGE;
            case IllegalArgumentException x -> ExitCodes.USAGE;
            case WorldException x -> ExitCodes.UNAVAILABLE;
            case UncheckedIOException x -> ExitCodes.UNAVAILABLE;
            case IOException x -> ExitCodes.UNAVAILABLE;
            default -> ExitCodes.PROBLEM;
        };
    }

    /**
     * The line printed for a failure: its own message, which names what was wrong; a failure without one (a bug)
     * names its type, so that {@code --verbose} is worth asking for.
     */
    public static String message(Throwable e) {
        String message = e.getMessage();
        if (e instanceof UncheckedIOException u && u.getCause() != null) {
            message = u.getCause().getMessage();
        }
        if (message == null || message.isBlank()) {
            return e.getClass().getName() + " (run with --verbose for the stack trace)";
        }
        // one line: a message that spans several (an SQL error with its detail) is joined
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
