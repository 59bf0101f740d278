package io.worldflow.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The figures as a table next to the goals and the best peer, and as JSON. */
final class Report {

    private final Results results;
    private final Sizes sizes;
    private final int repeat;
    private final Instant started;
    private final Map<String, String> worldNotes;

    Report(Results results, Sizes sizes, int repeat, Instant started, Map<String, String> worldNotes) {
        this.results = results;
        this.sizes = sizes;
        this.repeat = repeat;
        this.started = started;
        this.worldNotes = worldNotes;
    }

    void print(PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%nWorldflow benchmarks — median (range) over %d repeat(s); %d CPUs; %s%n",
                repeat,
                Runtime.getRuntime().availableProcessors(),
                started);
        worldNotes.forEach((w, note) -> out.printf("  %s: %s%n", w, note));
        String fmt = "%-50s %-9s %12s  %-23s %-10s %-30s %s%n";
        out.printf(Locale.ROOT, fmt, "figure", "world", "median", "range", "goal", "best peer", "goal met");
        out.println("-".repeat(148));
        for (Figure f : Figure.ALL) {
            for (String world : results.worlds()) {
                List<Double> v = results.values(world, f.key());
                if (v.isEmpty()) {
                    continue;
                }
                double med = Results.median(v);
                String range = num(Results.min(v)) + "–" + num(Results.max(v));
                String goal = f.goal() == null ? "" : (f.higherBetter() ? "≥ " : "≤ ") + num(f.goal());
                String peer = f.bestPeer()
                        .map(e -> num(e.getValue().mid()) + " " + e.getKey())
                        .orElse("");
                String met = f.meets(med).map(b -> b ? "yes" : "no").orElse("");
                out.printf(
                        Locale.ROOT, fmt, f.label() + " [" + f.unit() + "]", world, num(med), range, goal, peer, met);
            }
        }
        if (!results.failures().isEmpty()) {
            out.println("\nFailed cells:");
            results.failures().forEach(s -> out.println("  " + s));
        }
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : "%.2f", v);
    }

    Map<String, Object> toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("generatedAt", started.toString());
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("java", System.getProperty("java.version"));
        root.put("machine", machine);
        root.put("repeat", repeat);
        root.put("sizes", sizes);
        root.put("worlds", worldNotes);
        List<Object> figures = new ArrayList<>();
        for (Figure f : Figure.ALL) {
            for (String world : results.worlds()) {
                List<Double> v = results.values(world, f.key());
                if (v.isEmpty()) {
                    continue;
                }
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("key", f.key());
                m.put("world", world);
                m.put("label", f.label());
                m.put("unit", f.unit());
                m.put("higherBetter", f.higherBetter());
                m.put("values", v);
                m.put("median", Results.median(v));
                m.put("min", Results.min(v));
                m.put("max", Results.max(v));
                m.put("goal", f.goal());
                m.put("meetsGoal", f.meets(Results.median(v)).orElse(null));
                f.bestPeer()
                        .ifPresent(e -> m.put(
                                "bestPeer",
                                Map.of(
                                        "name",
                                        e.getKey(),
                                        "mid",
                                        e.getValue().mid(),
                                        "low",
                                        e.getValue().low(),
                                        "high",
                                        e.getValue().high())));
                m.put("peers", f.peers());
                figures.add(m);
            }
        }
        root.put("figures", figures);
        root.put("failures", results.failures());
        return root;
    }

    void writeJson(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), toJson());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
