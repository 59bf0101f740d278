package io.worldflow.world.postgres;

import io.worldflow.ChainReport;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.format.ChainKey;
import io.worldflow.format.LogChain;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The links the append statements compute in SQL are the ones {@link LogChain} computes: over a run's head, over its
 * genesis when a run written before the chain has none, in one statement or in several rounds, and under appends that
 * race for one run.
 */
class LogChainTest extends PgTestSupport {

    private Append markers(String runId, long from, int count) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            events.add(new MarkerRecorded(
                    runId, from + i, clock.instant(), "m" + (from + i), "n", new Payload("" + (from + i), "int")));
        }
        return new Append(runId, from, events, RunStatus.RUNNING);
    }

    private static final String KEY = java.util.Base64.getEncoder().encodeToString(new byte[32]);

    /** Checks keyed links with the key, and lets unkeyed ones and runs written before the chain pass: both are here. */
    private static ChainReport verify(World world, String runId) {
        return LogChain.verify(
                world.eventLog().storedLog(runId),
                ChainKey.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of(ChainKey.KEY, KEY)))
                        .orElseThrow()
                        .lenient());
    }

    @Test
    void aRunWrittenBeforeTheChainChainsFromItsGenesisAtItsNextRecordAlone() {
        String schema = freshSchema();
        World world = open(config(schema));
        world.eventLog().create(newRun("legacy"));
        world.eventLog().create(newRun("other"));
        TestPostgres.shared().execute("UPDATE " + schema + ".wf_runs SET head = NULL, started_link = NULL");

        // one run alone: the one-run statement; then two runs: the statement for several
        world.eventLog().append(List.of(markers("legacy", 1, 2)));
        world.eventLog().append(List.of(markers("legacy", 3, 1), markers("other", 1, 3)));

        for (String id : List.of("legacy", "other")) {
            ChainReport report = verify(world, id);
            assertThat(report.intact()).as(id + ": " + report.problem()).isTrue();
            assertThat(report.chainedFrom()).as(id).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "keyed: {0}")
    @ValueSource(booleans = {false, true})
    void pipelinedAppendsOfOneRunInOneBatchChainInOrder(boolean keyed) {
        World world = open(keyed ? config(freshSchema()).with(ChainKey.KEY, KEY) : config(freshSchema()));
        world.eventLog().create(newRun("piped"));
        world.eventLog().create(newRun("alone"));

        List<AppendResult> results = world.eventLog()
                .append(List.of(
                        markers("piped", 1, 2),
                        markers("alone", 1, 1),
                        markers("piped", 3, 1),
                        markers("piped", 4, 2)));

        assertThat(results).allMatch(AppendResult::appended);
        assertThat(verify(world, "piped").intact()).isTrue();
        assertThat(verify(world, "alone").intact()).isTrue();
        assertThat(world.eventLog().storedLog("piped").records()).hasSize(4);
    }

    @ParameterizedTest(name = "keyed: {0}")
    @ValueSource(booleans = {false, true})
    void appendsRacingForOneRunLeaveOneChainWhicheverWins(boolean keyed) throws Exception {
        World world = open(keyed ? config(freshSchema()).with(ChainKey.KEY, KEY) : config(freshSchema()));
        world.eventLog().create(newRun("raced"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            long expected = 1;
            for (int round = 0; round < 10; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<AppendResult>> tries = new ArrayList<>();
                long from = expected;
                for (int w = 0; w < 4; w++) {
                    int count = 1 + w;
                    tries.add(pool.submit(() -> {
                        go.await();
                        return world.eventLog()
                                .append(List.of(markers("raced", from, count)))
                                .getFirst();
                    }));
                }
                go.countDown();
                int won = 0;
                for (Future<AppendResult> f : tries) {
                    AppendResult r = f.get();
                    if (r.appended()) {
                        won++;
                        expected = r.logLength();
                    }
                }
                assertThat(won).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        ChainReport report = verify(world, "raced");
        assertThat(report.intact()).as(report.problem()).isTrue();
        assertThat(report.logLength()).isGreaterThan(10);
    }
}
