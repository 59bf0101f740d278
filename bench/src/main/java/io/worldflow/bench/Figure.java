package io.worldflow.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A figure the harness reports, with the goal and the peers' figures from BENCHMARKS.md.
 *
 * @param key          its key in the JSON ({@code w1.throughput})
 * @param label        for the table
 * @param unit         runs/s, ms, MiB, s, …
 * @param higherBetter whether more is better (throughput) or less (latency, memory, cost)
 * @param goal         the goal (≥ for higher-better figures, ≤ otherwise), or null
 * @param peers        the peers' figures on the same machine, by peer (empty when none is quoted)
 */
record Figure(String key, String label, String unit, boolean higherBetter, Double goal, Map<String, Peer> peers) {

    /** A peer's figure: the quoted median (or middle of the range), and the range. */
    record Peer(double mid, double low, double high) {
        static Peer range(double low, double high) {
            return new Peer((low + high) / 2, low, high);
        }

        static Peer of(double v) {
            return new Peer(v, v, v);
        }
    }

    static final String OW_PG = "OpenWorkflow PG";
    static final String OW_SQLITE = "OpenWorkflow SQLite";
    static final String DBOS = "DBOS";
    static final String RESTATE = "Restate";
    static final List<String> PEER_NAMES = List.of(OW_PG, OW_SQLITE, DBOS, RESTATE);

    /** A hop of a run's latency ({@link Stages}): ms, no goal, no peer quotes it. */
    private static Figure hop(String key, String label) {
        return new Figure(key, label, "ms", false, null, Map.of());
    }

    static final List<Figure> ALL = List.of(
            new Figure("w1.enqueue", "W1 enqueue rate", "runs/s", true, null, Map.of()),
            new Figure(
                    "w1.throughput",
                    "W1 drain throughput",
                    "runs/s",
                    true,
                    3000.0,
                    Map.of(
                            OW_PG,
                            new Peer(232, 210, 385),
                            OW_SQLITE,
                            new Peer(262, 199, 321),
                            DBOS,
                            new Peer(322, 245, 455),
                            RESTATE,
                            new Peer(500, 416, 646))),
            new Figure(
                    "w1.worker_peak_rss",
                    "W1 worker peak RSS",
                    "MiB",
                    false,
                    200.0,
                    Map.of(
                            OW_PG,
                            Peer.range(126, 132),
                            OW_SQLITE,
                            Peer.of(162),
                            DBOS,
                            Peer.range(281, 339),
                            RESTATE,
                            Peer.range(135, 262))),
            new Figure("w1.worker_cpu", "W1 worker CPU (whole JVM life)", "s", false, null, Map.of()),
            hop("w1.worker_gc", "W1 worker time in GC (whole JVM life)"),
            hop("w1.worker_jit", "W1 worker time in JIT compilers (whole JVM life)"),
            new Figure(
                    "w2.p50",
                    "W2 latency p50",
                    "ms",
                    false,
                    3.0,
                    Map.of(
                            OW_PG,
                            Peer.range(98, 111),
                            OW_SQLITE,
                            Peer.range(89, 92),
                            DBOS,
                            Peer.range(24, 35),
                            RESTATE,
                            Peer.range(10, 13))),
            new Figure(
                    "w2.p99",
                    "W2 latency p99",
                    "ms",
                    false,
                    10.0,
                    Map.of(
                            OW_PG,
                            Peer.range(141, 229),
                            OW_SQLITE,
                            Peer.range(114, 134),
                            DBOS,
                            Peer.range(39, 72),
                            RESTATE,
                            Peer.range(27, 34))),
            hop("w2.stage.submit.p50", "W2 hop: submit returned, p50"),
            hop("w2.stage.submit.p99", "W2 hop: submit returned, p99"),
            hop("w2.stage.notice.p50", "W2 hop: worker noticed, p50"),
            hop("w2.stage.notice.p99", "W2 hop: worker noticed, p99"),
            new Figure("w2.stage.noticed", "W2 runs a notice brought", "runs", true, null, Map.of()),
            hop("w2.stage.lease.p50", "W2 hop: leased, p50"),
            hop("w2.stage.lease.p99", "W2 hop: leased, p99"),
            hop("w2.stage.first_commit.p50", "W2 hop: first append committed, p50"),
            hop("w2.stage.first_commit.p99", "W2 hop: first append committed, p99"),
            hop("w2.stage.last_commit.p50", "W2 hop: last append committed, p50"),
            hop("w2.stage.last_commit.p99", "W2 hop: last append committed, p99"),
            hop("w2.stage.seen.p50", "W2 hop: driver saw it end, p50"),
            hop("w2.stage.seen.p99", "W2 hop: driver saw it end, p99"),
            hop("w2.worker_gc", "W2 worker time in GC"),
            hop("w2.worker_jit", "W2 worker time in JIT compilers"),
            new Figure("w3.single_cold", "W3 single run, cold", "ms", false, null, Map.of()),
            new Figure(
                    "w3.single_warm",
                    "W3 single run, warm",
                    "ms",
                    false,
                    30.0,
                    Map.of(
                            OW_PG,
                            Peer.range(165, 603),
                            OW_SQLITE,
                            Peer.range(123, 549),
                            DBOS,
                            Peer.range(386, 1589),
                            RESTATE,
                            Peer.range(55, 150))),
            new Figure(
                    "w3.batch_wall",
                    "W3 20 at once, wall",
                    "ms",
                    false,
                    300.0,
                    Map.of(
                            OW_PG,
                            Peer.range(1000, 1900),
                            OW_SQLITE,
                            Peer.range(2100, 3800),
                            DBOS,
                            Peer.range(3900, 7100),
                            RESTATE,
                            Peer.range(700, 1000))),
            new Figure("w5.single_cold", "W5 parent of 100 children, cold", "ms", false, null, Map.of()),
            new Figure("w5.single_warm", "W5 parent of 100 children, warm", "ms", false, null, Map.of()),
            new Figure("w5.batch_wall", "W5 20 parents at once, wall", "ms", false, null, Map.of()),
            new Figure("loop.first_tenth", "Loop, first tenth of 10,000 continues", "ms", false, null, Map.of()),
            new Figure("loop.last_tenth", "Loop, last tenth of 10,000 continues", "ms", false, null, Map.of()),
            new Figure("loop.ratio", "Loop, last tenth / first tenth", "x", false, null, Map.of()),
            new Figure("w6.p50", "W6 race, signal to completion p50", "ms", false, null, Map.of()),
            new Figure("w6.p99", "W6 race, signal to completion p99", "ms", false, null, Map.of()),
            new Figure(
                    "w4.p50",
                    "W4 lateness p50",
                    "ms",
                    false,
                    3.0,
                    Map.of(
                            OW_PG,
                            Peer.range(1096, 2168),
                            OW_SQLITE,
                            Peer.range(904, 2121),
                            DBOS,
                            Peer.of(4),
                            RESTATE,
                            Peer.range(10, 21))),
            new Figure(
                    "w4.p99",
                    "W4 lateness p99",
                    "ms",
                    false,
                    20.0,
                    Map.of(
                            OW_PG,
                            Peer.range(1454, 2610),
                            OW_SQLITE,
                            Peer.range(1405, 2865),
                            DBOS,
                            Peer.range(44, 62),
                            RESTATE,
                            Peer.range(31, 66))),
            new Figure("w4.wall", "W4 total wall", "s", false, null, Map.of()),
            hop("w4.stage.lease.p50", "W4 due → resumed turn leased, p50"),
            hop("w4.stage.lease.p99", "W4 due → resumed turn leased, p99"),
            hop("w4.stage.end.p50", "W4 due → end committed, p50"),
            hop("w4.stage.end.p99", "W4 due → end committed, p99"),
            hop("w4.tail.lease", "W4 latest 1%: due → leased, median"),
            hop("w4.tail.end", "W4 latest 1%: due → end committed, median"),
            hop("w4.worker_gc", "W4 worker time in GC"),
            hop("w4.worker_jit", "W4 worker time in JIT compilers"),
            new Figure(
                    "cost.commits",
                    "cost: commits per run",
                    "commits",
                    false,
                    1.5,
                    Map.of(OW_PG, Peer.of(10.1), DBOS, Peer.of(18.2))),
            new Figure(
                    "cost.wal_bytes",
                    "cost: WAL bytes per run",
                    "B",
                    false,
                    3000.0,
                    Map.of(OW_PG, Peer.of(7200), DBOS, Peer.of(4500))),
            new Figure(
                    "cost.wal_syncs",
                    "cost: WAL syncs per run",
                    "syncs",
                    false,
                    1.2,
                    Map.of(OW_PG, Peer.of(2.9), DBOS, Peer.of(5.1))),
            new Figure("cost.throughput", "cost run: drain throughput", "runs/s", true, null, Map.of()),
            new Figure("scale.steps_small", "scale: short sequential run", "ms", false, null, Map.of()),
            new Figure("scale.steps_large", "scale: long sequential run", "ms", false, null, Map.of()),
            new Figure("scale.ratio", "scale: long / short time", "×", false, 12.0, Map.of()),
            new Figure("scale.replay_cold", "scale: resume of the long history, first", "ms", false, null, Map.of()),
            new Figure("scale.replay", "scale: resume of the long history, second", "ms", false, 100.0, Map.of()),
            new Figure("scale.replay_events", "scale: events in that history", "events", true, null, Map.of()),
            new Figure("scale.verify", "scale: check of that history's hash chain", "ms", false, 50.0, Map.of()),
            new Figure(
                    "scale.sleepers_heap", "scale: worker heap after GC, all sleeping", "MiB", false, 512.0, Map.of()),
            new Figure("scale.sleepers_rss", "scale: worker RSS, all sleeping", "MiB", false, null, Map.of()),
            new Figure("search.seed", "search: runs with attributes created", "runs/s", true, null, Map.of()),
            new Figure(
                    "search.customer_p50", "search: a customer's runs (10 of all), p50", "ms", false, 10.0, Map.of()),
            new Figure(
                    "search.customer_p99", "search: a customer's runs (10 of all), p99", "ms", false, null, Map.of()),
            new Figure(
                    "search.tenant_p50",
                    "search: first 50 of a tenant's runs (a tenth), p50",
                    "ms",
                    false,
                    null,
                    Map.of()),
            new Figure(
                    "search.tenant_deep_p50",
                    "search: the 20th page of 50 of a tenant's runs (or its last), p50",
                    "ms",
                    false,
                    null,
                    Map.of()),
            new Figure(
                    "search.two_p50",
                    "search: a customer within a tenant (two attributes), p50",
                    "ms",
                    false,
                    null,
                    Map.of()),
            new Figure(
                    "search.count_p50",
                    "search: counts per status of a customer's runs, p50",
                    "ms",
                    false,
                    null,
                    Map.of()),
            new Figure("w7.p50", "W7 schedule lateness p50, warm", "ms", false, 5.0, Map.of()),
            new Figure("w7.p99", "W7 schedule lateness p99, warm", "ms", false, 50.0, Map.of()),
            new Figure("w7.max", "W7 schedule lateness max, warm", "ms", false, null, Map.of()),
            new Figure(
                    "w7.cold_p50", "W7 lateness p50 of the first fire time (cold worker)", "ms", false, null, Map.of()),
            new Figure(
                    "w7.cold_max",
                    "W7 lateness max of the first fire times (cold worker)",
                    "ms",
                    false,
                    null,
                    Map.of()),
            new Figure("w7.runs", "W7 scheduled runs", "runs", true, null, Map.of()),
            new Figure("w7.twice", "W7 fire times run more than once", "runs", false, null, Map.of()),
            new Figure("w7.skipped", "W7 fire times skipped, worker up", "fires", false, null, Map.of()),
            new Figure("w8.window_median", "W8 starts per 1 s window, median", "starts", true, null, Map.of()),
            new Figure("w8.window_min", "W8 starts per 1 s window, min", "starts", true, null, Map.of()),
            new Figure("w8.window_max", "W8 starts per 1 s window, max", "starts", false, null, Map.of()),
            new Figure("w8.worst_deviation", "W8 worst window off the limit", "%", false, 5.0, Map.of()),
            new Figure("w8.rate", "W8 overall start rate", "starts/s", true, null, Map.of()));

    static Optional<Figure> byKey(String key) {
        return ALL.stream().filter(f -> f.key.equals(key)).findFirst();
    }

    /** The best peer (by its middle figure), if any. */
    Optional<Map.Entry<String, Peer>> bestPeer() {
        return peers.entrySet().stream()
                .min((a, b) -> higherBetter
                        ? Double.compare(b.getValue().mid(), a.getValue().mid())
                        : Double.compare(a.getValue().mid(), b.getValue().mid()));
    }

    /** Whether {@code value} meets the goal (empty when there is none). */
    Optional<Boolean> meets(double value) {
        if (goal == null) {
            return Optional.empty();
        }
        return Optional.of(higherBetter ? value >= goal : value <= goal);
    }
}
