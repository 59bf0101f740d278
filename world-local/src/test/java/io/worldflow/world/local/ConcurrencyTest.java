package io.worldflow.world.local;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.AppendResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ConcurrencyTest extends LocalWorldTestSupport {

    private static final int WRITERS = 8;
    private static final int RUNS_EACH = 50;

    @Test
    void concurrentWritersAndReadersSeeConsistentRuns() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 4);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    go.await();
                    int appended = 0;
                    for (int i = 0; i < RUNS_EACH; i++) {
                        String id = "w" + writer + "-" + i;
                        create(id);
                        AppendResult r = appendOne(markerAppend(id, 1, 2, RunStatus.RUNNING));
                        appended += r.appended() ? 1 : 0;
                        assertThat(world.eventLog().read(id, 0)).hasSize(3);
                    }
                    return appended;
                }));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                readers.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 50; i++) {
                        for (RunInfo run : world.runQueries()
                                .list(RunQuery.all().withLimit(100))
                                .runs()) {
                            assertThat(run.logLength()).isIn(1L, 3L);
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : writers) {
                total += f.get(30, TimeUnit.SECONDS);
            }
            for (Future<?> f : readers) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(WRITERS * RUNS_EACH);
        } finally {
            pool.shutdownNow();
        }
        assertThat(world.runQueries().countByStatus(RunQuery.all()))
                .containsEntry(RunStatus.RUNNING, (long) WRITERS * RUNS_EACH);
    }
}
