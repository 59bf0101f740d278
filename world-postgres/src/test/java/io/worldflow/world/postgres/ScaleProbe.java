package io.worldflow.world.postgres;

import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.Lease;
import io.worldflow.spi.World;
import io.worldflow.world.jdbc.Micros;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Run queries and leasing over a large table: {@code -Dworldflow.probe=true -Dworldflow.probe.scale=1000000}.
 * Rows are generated in SQL (most runs finished, a tenth sleeping with a timer, a few due), then each query
 * is timed through the world's API (median of 25 calls, after the pool's connections have prepared them).
 */
@Timeout(900)
class ScaleProbe extends PgTestSupport {

    @Test
    void queriesStayFastOnALargeTable() {
        assumeTrue(Boolean.getBoolean("worldflow.probe"), "a probe, run with -Dworldflow.probe=true");
        int n = Integer.getInteger("worldflow.probe.scale", 1_000_000);
        String schema = freshSchema();
        World world = open(config(schema));
        long base = Micros.of(clock.instant()) - n * 1000L; // one run per millisecond, oldest first
        long nowMicros = Micros.of(clock.instant());
        long t0 = System.nanoTime();
        TestPostgres.shared()
                .execute(
                        "INSERT INTO " + schema
                                + ".wf_runs (run_id, workflow, status, input_json, created_at, updated_at,"
                                + " available_at, queue, priority, log_length)"
                                + " SELECT 'order-' || i, 'wf.' || (i % 20), CASE WHEN i % 20 < 14 THEN 'COMPLETED'"
                                + " WHEN i % 20 < 16 THEN 'FAILED' WHEN i % 20 < 18 THEN 'SLEEPING' WHEN i % 20 = 18"
                                + " THEN 'RUNNING' ELSE 'PENDING' END, '{}', " + base + " + i * 1000, " + base
                                + " + i * 1000, " + base + " + i * 1000, 'default', 0, 5 FROM generate_series(1, " + n
                                + ") i",
                        "INSERT INTO " + schema + ".wf_tasks (run_id, queue, priority, available_at)"
                                + " SELECT run_id, queue, priority, CASE WHEN status = 'SLEEPING' THEN " + nowMicros
                                + " + 3600000000 ELSE " + nowMicros + " - 1000 END FROM " + schema + ".wf_runs"
                                + " WHERE status IN ('SLEEPING', 'PENDING', 'RUNNING')",
                        "ANALYZE " + schema + ".wf_runs",
                        "ANALYZE " + schema + ".wf_tasks");
        System.out.printf("SCALE %d runs generated in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);

        RunPage first = time("list newest 50", () -> world.runQueries().list(RunQuery.all()));
        time(
                "list page 2 (cursor)",
                () -> world.runQueries().list(RunQuery.all().withCursor(first.nextCursor())));
        time("list RUNNING", () -> world.runQueries().list(RunQuery.all().withStatuses(RunStatus.RUNNING)));
        time(
                "list FAILED+CANCELED",
                () -> world.runQueries().list(RunQuery.all().withStatuses(RunStatus.FAILED, RunStatus.CANCELED)));
        time(
                "list WAITING+CANCELED (none)",
                () -> world.runQueries().list(RunQuery.all().withStatuses(RunStatus.WAITING, RunStatus.CANCELED)));
        time(
                "list RUNNING+PENDING of wf.3",
                () -> world.runQueries()
                        .list(RunQuery.all()
                                .withStatuses(RunStatus.RUNNING, RunStatus.PENDING)
                                .withWorkflow("wf.3")));
        time("list workflow wf.7", () -> world.runQueries().list(RunQuery.all().withWorkflow("wf.7")));
        time(
                "list id prefix order-12345",
                () -> world.runQueries().list(RunQuery.all().withIdPrefix("order-12345")));
        Instant mid = Micros.toInstant(base + n / 2 * 1000L);
        time(
                "list created in 1 minute",
                () -> world.runQueries().list(RunQuery.all().withCreated(mid, mid.plus(Duration.ofMinutes(1)))));
        time("get", () -> world.runQueries().get("order-" + (n / 3)));
        time("count by status (whole table)", () -> world.runQueries().countByStatus(RunQuery.all()));
        time("nextDue", () -> world.taskQueue().nextDue(Set.of("default")));
        List<Lease> leased = time(
                "lease 64 of 100,000 due",
                () -> world.taskQueue().lease("probe", Set.of("default"), 64, Duration.ofMinutes(5)));
        assertThat(leased).hasSize(64);
        TestPostgres.shared()
                .execute(
                        "UPDATE " + schema + ".wf_tasks SET available_at = available_at + 7200000000"
                                + " WHERE run_id NOT IN (SELECT run_id FROM " + schema
                                + ".wf_tasks WHERE lease_token IS NULL LIMIT 20)",
                        "ANALYZE " + schema + ".wf_tasks");
        time(
                "lease with 20 due, 150,000 later",
                () -> world.taskQueue().lease("probe", Set.of("default"), 64, Duration.ofMinutes(5)));
        time("nextDue with nothing due", () -> world.taskQueue().nextDue(Set.of("default")));
    }

    private static <T> T time(String what, Supplier<T> call) {
        T result = call.get(); // warm
        long[] samples = new long[25];
        for (int i = 0; i < samples.length; i++) {
            long t0 = System.nanoTime();
            result = call.get();
            samples[i] = System.nanoTime() - t0;
        }
        java.util.Arrays.sort(samples);
        System.out.printf("SCALE %-32s median %7.2f ms (max %7.2f)%n", what, samples[12] / 1e6, samples[24] / 1e6);
        return result;
    }
}
