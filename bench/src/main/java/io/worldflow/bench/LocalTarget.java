package io.worldflow.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/** The local world: a new SQLite file (synchronous=FULL, the default) in a new directory per workload. */
final class LocalTarget implements Target {

    private final Path root;
    private int next;

    LocalTarget() {
        try {
            root = Files.createTempDirectory("worldflow-bench-local");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public Map<String, String> freshWorld(String label) {
        Path dir = root.resolve(String.format("%03d-%s", next++, label));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("worldflow.world", "local");
        p.put("worldflow.local.path", dir.resolve("bench.db").toString());
        return p;
    }

    @Override
    public String describe() {
        return "SQLite file, synchronous=FULL, a new file per workload";
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
