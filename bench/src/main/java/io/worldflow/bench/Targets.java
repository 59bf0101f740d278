package io.worldflow.bench;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The worlds the harness knows, by name. */
final class Targets {

    /**
     * Name → how to start it. The {@code aws} world is built elsewhere; when it lands, add
     * {@code "aws", AwsTarget::new} here (fresh tables per workload, {@code shared() == true}).
     */
    private static final Map<String, Supplier<Target>> KNOWN = Map.of(
            "local", LocalTarget::new,
            "postgres", PostgresTarget::new);

    /** The worlds {@code all} runs, in order. */
    static final List<String> DEFAULT = List.of("local", "postgres");

    private Targets() {
    }

    static Target start(String name) {
        Supplier<Target> s = KNOWN.get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown or unavailable world '" + name + "'; the harness knows "
                    + KNOWN.keySet().stream().sorted().toList() + " (aws: not on this branch yet)");
        }
        return s.get();
    }
}
