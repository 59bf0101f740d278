package io.worldflow;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An exception as recorded in the event log: its class name, message, stack trace and the class names
 * of its causes. Replay-safe: workflow code branches on this, never on a live exception object.
 *
 * @param type       fully qualified class name of the exception
 * @param message    its message, possibly null
 * @param stackTrace the printed stack trace (with causes), possibly empty
 * @param causeTypes class names of the chained causes, outermost first
 */
public record ErrorInfo(String type, String message, String stackTrace, List<String> causeTypes) {

    private static final int MAX_STACK_CHARS = 16_000;

    public ErrorInfo {
        Objects.requireNonNull(type, "type");
        stackTrace = stackTrace == null ? "" : stackTrace;
        causeTypes = causeTypes == null ? List.of() : List.copyOf(causeTypes);
    }

    public static ErrorInfo of(String type, String message) {
        return new ErrorInfo(type, message, "", List.of());
    }

    public static ErrorInfo of(Throwable error) {
        StringWriter out = new StringWriter();
        error.printStackTrace(new PrintWriter(out));
        String trace = out.toString();
        List<String> causes = new ArrayList<>();
        for (Throwable c = error; c != null && causes.size() < 16; c = c.getCause()) {
            if (c != error) {
                causes.add(c.getClass().getName());
            }
            // a step's failure replayed from the log carries the step's error as recorded, not as an object: its
            // cause is read from the record, so that a run fails with the same causes whether replayed or not
            if (c instanceof StepFailedException replayed && replayed.getCause() == null) {
                causes.add(replayed.error().type());
                causes.addAll(replayed.error().causeTypes());
                trace = trace + "Caused by: " + replayed.error().stackTrace();
                break;
            }
            if (c == c.getCause()) {
                break;
            }
        }
        if (trace.length() > MAX_STACK_CHARS) {
            trace = trace.substring(0, MAX_STACK_CHARS) + "\n\t... (truncated)";
        }
        return new ErrorInfo(
                error.getClass().getName(),
                error.getMessage(),
                trace,
                causes.size() > 16 ? causes.subList(0, 16) : causes);
    }

    /** {@code type: message}, or just the type. */
    public String summary() {
        return message == null ? type : type + ": " + message;
    }

    /** Whether the recorded exception, or one of its causes, is an instance of {@code klass} (by name, walking superclasses when loadable). */
    public boolean isA(Class<? extends Throwable> klass) {
        if (matches(type, klass)) {
            return true;
        }
        for (String cause : causeTypes) {
            if (matches(cause, klass)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String recorded, Class<?> klass) {
        if (recorded.equals(klass.getName())) {
            return true;
        }
        // a JDK type (IOException) has no class loader that sees the application's exception types
        ClassLoader[] loaders = {
            klass.getClassLoader(), Thread.currentThread().getContextClassLoader(), ErrorInfo.class.getClassLoader()
        };
        for (ClassLoader loader : loaders) {
            try {
                return klass.isAssignableFrom(Class.forName(recorded, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                // not visible from this loader: try the next
            }
        }
        return false;
    }
}
