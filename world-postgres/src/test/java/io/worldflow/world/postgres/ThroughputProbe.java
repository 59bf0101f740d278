package io.worldflow.world.postgres;

import io.worldflow.RunHandle;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The W1 drain workload of the benchmarks, in one JVM: enqueue N noop3 runs one call at a time, then start a
 * worker (concurrency 100) and wait until all have completed; report runs/s and the database's cost per run
 * (commits, WAL bytes, WAL syncs). Off by default: {@code -Dworldflow.probe=true} (and {@code -Dworldflow.probe.runs=N}).
 */
@Timeout(600)
class ThroughputProbe {

    record Counters(long commits, long walBytes, long walSyncs) {
    }

    @Test
    void drainNoop3() throws Exception {
        assumeTrue(Boolean.getBoolean("worldflow.probe"), "a probe, run with -Dworldflow.probe=true");
        int warm = Integer.getInteger("worldflow.probe.warmup", 0);
        if (warm > 0) {
            drain(warm);
        }
        drain(Integer.getInteger("worldflow.probe.runs", 5000));
    }

    private void drain(int n) throws Exception {
        Workflow<Integer, Map<String, Integer>> noop3 = Workflow.define("noop3", Integer.class, (ctx, in) -> {
            ctx.step("s1", () -> Map.of("i", 1));
            ctx.step("s2", () -> Map.of("i", 2));
            return ctx.step("s3", () -> Map.of("i", 3));
        });
        String schema = "probe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Worldflow wf = Worldflow.builder().property("worldflow.world", "postgres")
                .properties(TestPostgres.shared().config(schema).with(PostgresWorldProvider.POOL_SIZE, "10").asMap())
                .register(noop3).build()) {
            Counters c0 = counters();
            long t0 = System.nanoTime();
            List<RunHandle<Map<String, Integer>>> runs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                runs.add(wf.start(noop3, i));
            }
            long t1 = System.nanoTime();
            Counters c1 = counters();
            wf.startWorker(WorkerOptions.defaults().withHandleSigterm(false).withConcurrency(100).withWorkerId("probe"));
            long t2 = System.nanoTime();
            while (wf.counts(RunQuery.all()).get(RunStatus.COMPLETED) < n) {
                Thread.sleep(50);
            }
            long t3 = System.nanoTime();
            assertThat(runs.getLast().result(Duration.ofSeconds(10))).isEqualTo(Map.of("i", 3));
            wf.close();
            Counters c2 = counters();
            double enqueue = n / ((t1 - t0) / 1e9);
            double drain = n / ((t3 - t2) / 1e9);
            System.out.printf("PROBE n=%d enqueue %.0f runs/s (%.2f commits, %.0f B WAL, %.2f syncs per run)%n", n,
                    enqueue, per(c1.commits - c0.commits, n), per(c1.walBytes - c0.walBytes, n),
                    per(c1.walSyncs - c0.walSyncs, n));
            System.out.printf("PROBE n=%d drain %.0f runs/s (%.2f commits, %.0f B WAL, %.2f syncs per run)%n", n,
                    drain, per(c2.commits - c1.commits, n), per(c2.walBytes - c1.walBytes, n),
                    per(c2.walSyncs - c1.walSyncs, n));
        }
    }

    /** W2: an idle worker (3 s after start), 200 noop3 runs one at a time, submit to seen completed. */
    @Test
    void latencyOneAtATime() throws Exception {
        assumeTrue(Boolean.getBoolean("worldflow.probe"), "a probe, run with -Dworldflow.probe=true");
        Workflow<Integer, Map<String, Integer>> noop3 = Workflow.define("noop3", Integer.class, (ctx, in) -> {
            ctx.step("s1", () -> Map.of("i", 1));
            ctx.step("s2", () -> Map.of("i", 2));
            return ctx.step("s3", () -> Map.of("i", 3));
        });
        String schema = "probe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Worldflow wf = Worldflow.builder().property("worldflow.world", "postgres")
                .properties(TestPostgres.shared().config(schema).asMap()).register(noop3).build()) {
            wf.startWorker(WorkerOptions.defaults().withHandleSigterm(false).withConcurrency(100).withWorkerId("probe"));
            for (int i = 0; i < 200; i++) {   // warm-up, not measured
                wf.start(noop3, i).result(Duration.ofSeconds(10));
            }
            Thread.sleep(3_000);
            long[] micros = new long[200];
            for (int i = 0; i < micros.length; i++) {
                long t0 = System.nanoTime();
                wf.start(noop3, i).result(Duration.ofSeconds(10));
                micros[i] = (System.nanoTime() - t0) / 1_000;
            }
            java.util.Arrays.sort(micros);
            System.out.printf("PROBE latency p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", micros[100] / 1e3,
                    micros[197] / 1e3, micros[199] / 1e3);
        }
    }

    private static double per(long total, int n) {
        return (double) total / n;
    }

    /**
     * The server's counters. Backends publish their statistics when idle, at most every 10 s: wait that long
     * first ({@code -Dworldflow.probe.settle=false} skips it, making the commit and sync counts unreliable).
     */
    private static Counters counters() throws Exception {
        if (!"false".equals(System.getProperty("worldflow.probe.settle"))) {
            Thread.sleep(11_000);
        }
        try (Connection c = TestPostgres.shared().connect(); Statement st = c.createStatement()) {
            long commits;
            try (ResultSet rs = st.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
                rs.next();
                commits = rs.getLong(1);
            }
            long wal;
            try (ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
                rs.next();
                wal = rs.getLong(1);
            }
            long syncs;
            try (ResultSet rs = st.executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
                rs.next();
                syncs = rs.getLong(1);
            }
            return new Counters(commits, wal, syncs);
        }
    }
}
