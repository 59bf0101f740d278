package io.worldflow.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where a run's latency went, hop by hop, from the driver's marks (submit called, submit returned, completion seen)
 * and the worker's ({@link StageRecorder}: the world's notices, leases, commits), all in wall-clock microseconds of one
 * machine. A hop is the time from the mark before it to its own; a mark that a run did not have (no notice when the
 * run was leased as it was created) leaves its hop out of that run, and a mark earlier than the one before it (a
 * notice that came before the submit returned) makes its hop zero.
 */
final class Stages {

    /** W2's hops, in order: the key of each figure and what it measures up to. */
    static final List<String> W2_HOPS = List.of("submit", "notice", "lease", "first_commit", "last_commit", "seen");

    private Stages() {}

    /** One run as the driver saw it. */
    record Driven(String runId, long submitAt, long submitted, long seen) {}

    /** A run's marks in the worker. */
    record Marks(long[] leases, long[] commits, long[] wakes) {
        static Marks parse(String text) {
            String[] p = text.split(";", -1);
            return new Marks(longs(p[0]), longs(p.length > 1 ? p[1] : ""), longs(p.length > 2 ? p[2] : ""));
        }
    }

    static long[] longs(String csv) {
        return csv.isBlank()
                ? new long[0]
                : Arrays.stream(csv.split(","))
                        .mapToLong(Long::parseLong)
                        .sorted()
                        .toArray();
    }

    /**
     * W2: per hop, the median and p99 in ms over the runs ({@code w2.stage.<hop>.p50}/{@code .p99}), and how many runs
     * were noticed ({@code w2.stage.noticed}).
     */
    static Map<String, Double> w2(List<Driven> runs, RemoteClient worker) {
        return w2(runs, worker.notices(), worker::marks);
    }

    /** {@link #w2(List, RemoteClient)} from the worker's answers: its notices, and each run's marks by run id. */
    static Map<String, Double> w2(List<Driven> runs, String noticesText, Function<String, String> marksOf) {
        long[] notices = longs(noticesText);
        Map<String, List<Double>> hops = new LinkedHashMap<>();
        W2_HOPS.forEach(h -> hops.put(h, new ArrayList<>()));
        int noticed = 0;
        for (Driven d : runs) {
            Marks m = Marks.parse(marksOf.apply(d.runId()));
            long lease = m.leases().length > 0 ? m.leases()[0] : -1;
            long notice = firstAtOrAfter(notices, d.submitAt());
            if (notice >= 0 && lease >= 0 && notice > lease) {
                notice = -1; // the run was leased before any notice of it came: it was not the notice that brought it
            }
            noticed += notice >= 0 ? 1 : 0;
            long first = m.commits().length > 0 ? m.commits()[0] : -1;
            long last = m.commits().length > 0 ? m.commits()[m.commits().length - 1] : -1;
            long[] marks = {d.submitAt(), d.submitted(), notice, lease, first, last, d.seen()};
            long before = marks[0];
            for (int i = 1; i < marks.length; i++) {
                if (marks[i] < 0) {
                    continue;
                }
                hops.get(W2_HOPS.get(i - 1)).add(Math.max(0, marks[i] - before) / 1_000.0);
                before = Math.max(before, marks[i]);
            }
        }
        Map<String, Double> f = new LinkedHashMap<>();
        hops.forEach((hop, ms) -> percentiles(f, "w2.stage." + hop, ms));
        f.put("w2.stage.noticed", (double) noticed);
        return f;
    }

    /**
     * W4: from each run's due time (its timer's, as its append recorded it) to the lease of the turn that resumed it
     * ({@code w4.stage.lease}, negative when the worker leased it ahead of time; left out when the run waited in
     * memory) and to the commit of its end ({@code w4.stage.end}); median and p99 in ms.
     */
    static Map<String, Double> w4(List<String> runIds, double[] lateness, RemoteClient worker) {
        return w4(runIds, lateness, worker::marks);
    }

    /**
     * {@link #w4(List, double[], RemoteClient)} from each run's marks by run id. Besides the hops of every run, those of
     * the runs in the tail ({@code w4.tail.lease}, {@code w4.tail.end}: the medians over the runs at least as late as
     * the p99 of {@code lateness}, each run's own figure in the order of {@code runIds}): a tail leased on time was
     * late inside the worker, one leased late waited for the world.
     */
    static Map<String, Double> w4(List<String> runIds, double[] lateness, Function<String, String> marksOf) {
        double p99 = Workloads.Stats.percentile(lateness, 99);
        List<Double> lease = new ArrayList<>();
        List<Double> end = new ArrayList<>();
        List<Double> tailLease = new ArrayList<>();
        List<Double> tailEnd = new ArrayList<>();
        for (int i = 0; i < runIds.size(); i++) {
            Marks m = Marks.parse(marksOf.apply(runIds.get(i)));
            if (m.wakes().length == 0 || m.commits().length == 0) {
                continue;
            }
            boolean tail = lateness[i] >= p99;
            long due = m.wakes()[0];
            if (m.leases().length > 1) {
                // the first lease began the run; the second, the turn after its sleep
                double ms = (m.leases()[1] - due) / 1_000.0;
                lease.add(ms);
                if (tail) {
                    tailLease.add(ms);
                }
            }
            double ms = (m.commits()[m.commits().length - 1] - due) / 1_000.0;
            end.add(ms);
            if (tail) {
                tailEnd.add(ms);
            }
        }
        Map<String, Double> f = new LinkedHashMap<>();
        percentiles(f, "w4.stage.lease", lease);
        percentiles(f, "w4.stage.end", end);
        median(f, "w4.tail.lease", tailLease);
        median(f, "w4.tail.end", tailEnd);
        return f;
    }

    /**
     * The worker JVM's time in garbage collection (the collectors' own count) and in its JIT compilers, summed over
     * their threads, in ms: read before and after a workload, a tail can be set beside what the JVM did meanwhile.
     */
    record JvmTimes(double gcMs, double jitMs) {
        static JvmTimes of(RemoteClient worker) {
            String[] p = worker.jvmTimes().split(" ");
            return new JvmTimes(Double.parseDouble(p[0]), Double.parseDouble(p[1]));
        }

        /** {@code <workload>.worker_gc} and {@code .worker_jit}: what the worker spent since {@code this}. */
        Map<String, Double> since(String workload, RemoteClient worker) {
            JvmTimes now = of(worker);
            return Map.of(workload + ".worker_gc", now.gcMs - gcMs, workload + ".worker_jit", now.jitMs - jitMs);
        }
    }

    private static long firstAtOrAfter(long[] sorted, long at) {
        for (long v : sorted) {
            if (v >= at) {
                return v;
            }
        }
        return -1;
    }

    private static void median(Map<String, Double> f, String key, List<Double> ms) {
        if (!ms.isEmpty()) {
            f.put(
                    key,
                    Workloads.Stats.percentile(
                            ms.stream().mapToDouble(Double::doubleValue).toArray(), 50));
        }
    }

    private static void percentiles(Map<String, Double> f, String key, List<Double> ms) {
        if (ms.isEmpty()) {
            return;
        }
        double[] v = ms.stream().mapToDouble(Double::doubleValue).toArray();
        f.put(key + ".p50", Workloads.Stats.percentile(v, 50));
        f.put(key + ".p99", Workloads.Stats.percentile(v, 99));
    }
}
