package io.worldflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every measured value, by world and figure key, in the order measured; medians and ranges over repeats. */
final class Results {

    private final Map<String, Map<String, List<Double>>> byWorld = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    void add(String world, Map<String, Double> figures) {
        Map<String, List<Double>> w = byWorld.computeIfAbsent(world, k -> new LinkedHashMap<>());
        figures.forEach((k, v) -> w.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
    }

    void failed(String world, Workload workload, int repeat, Exception e) {
        failures.add(world + " " + workload + " #" + repeat + ": " + e);
    }

    List<String> failures() {
        return failures;
    }

    List<String> worlds() {
        return List.copyOf(byWorld.keySet());
    }

    List<Double> values(String world, String key) {
        return byWorld.getOrDefault(world, Map.of()).getOrDefault(key, List.of());
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
