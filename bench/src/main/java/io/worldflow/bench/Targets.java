package io.worldflow.bench;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The worlds the harness knows, by name. */
final class Targets {

    /** Name → how to start it. */
    private static final Map<String, Supplier<Target>> KNOWN = Map.of(
            "local", LocalTarget::new,
            "postgres", PostgresTarget::new,
            "aws", AwsTarget::new);

    /** The worlds {@code all} runs, in order; aws on the local emulators is informative only. */
    static final List<String> DEFAULT = List.of("local", "postgres", "aws");

    private Targets() {}

    static Target start(String name) {
        Supplier<Target> s = KNOWN.get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown or unavailable world '" + name + "'; the harness knows "
                    + KNOWN.keySet().stream().sorted().toList());
        }
        return s.get();
    }
}
