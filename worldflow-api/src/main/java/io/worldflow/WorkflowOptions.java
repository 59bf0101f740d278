package io.worldflow;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Per-workflow settings.
 *
 * @param stepRetry   the retry policy of steps that do not name their own
 * @param signalTypes the type each named signal of the workflow's runs is read as when it is sent: a signal sent as
 *                    plain JSON (over HTTP, from the CLI) or as a map is read as its declared type before it is stored,
 *                    so its {@link Secret} fields are sealed and a body of the wrong shape is refused, naming the type,
 *                    with nothing stored. Signals not declared are stored as they are sent.
 */
public record WorkflowOptions(RetryPolicy stepRetry, Map<String, Class<?>> signalTypes) {

    public WorkflowOptions {
        Objects.requireNonNull(stepRetry, "stepRetry");
        Objects.requireNonNull(signalTypes, "signalTypes");
        signalTypes.forEach(WorkflowOptions::checkSignalType);
        signalTypes = Map.copyOf(signalTypes);
    }

    public WorkflowOptions(RetryPolicy stepRetry) {
        this(stepRetry, Map.of());
    }

    public static WorkflowOptions defaults() {
        return new WorkflowOptions(RetryPolicy.defaults());
    }

    public WorkflowOptions withStepRetry(RetryPolicy policy) {
        return new WorkflowOptions(policy, signalTypes);
    }

    /**
     * Declares that the signal {@code name} carries a {@code type}: one sent as JSON or as a map is read as a
     * {@code type} before it is stored. Declaring a name again replaces its type.
     */
    public WorkflowOptions withSignalType(String name, Class<?> type) {
        checkSignalType(name, type);
        Map<String, Class<?>> types = new LinkedHashMap<>(signalTypes);
        types.put(name, type);
        return new WorkflowOptions(stepRetry, types);
    }

    private static void checkSignalType(String name, Class<?> type) {
        if (name == null || name.isBlank() || name.length() > 100 || name.startsWith("@")) {
            throw new IllegalArgumentException(
                    "a declared signal's name must be 1..100 non-blank characters, not starting with '@', was "
                            + (name == null ? "null" : "'" + name + "'"));
        }
        Objects.requireNonNull(type, () -> "the type of signal '" + name + "'");
        if (type.isPrimitive() || type == Void.class) {
            throw new IllegalArgumentException("signal '" + name + "' cannot be declared as " + type.getName()
                    + ": give a class, such as a record");
        }
    }
}
