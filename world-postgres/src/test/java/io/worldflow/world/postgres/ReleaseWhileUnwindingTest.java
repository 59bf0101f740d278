package io.worldflow.world.postgres;

import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Runs whose turns end and are at once due again (a signal arrived during the turn): the worker leases a
 * run again while its previous turn still unwinds, many times over, and must neither lose a turn nor lock up.
 * (It locked up when a turn's end was reported to the worker under the turn's own lock, while the worker,
 * holding the run's slot, waited for that lock: three runs in four hung before that was fixed.)
 */
class ReleaseWhileUnwindingTest {

    private static final int RUNS = 40;
    private static final int SIGNALS = 15;

    @Test
    void turnsThatEndAsTheirRunIsLeasedAgainNeverLockTheWorker() {
        Workflow<Integer, Integer> waiter = Workflow.define("unwinding.waiter", Integer.class, (ctx, n) -> {
            int sum = 0;
            for (int i = 0; i < SIGNALS; i++) {
                Optional<Integer> got = ctx.awaitSignal("ping", Integer.class, Duration.ofMinutes(5));
                sum += got.orElse(0);
            }
            return sum;
        });
        String schema =
                "unwinding_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        assertTimeoutPreemptively(Duration.ofSeconds(45), () -> {
            try (Worldflow wf = Worldflow.builder()
                    .property("worldflow.world", "postgres")
                    .properties(TestPostgres.shared().config(schema).asMap())
                    .register(waiter)
                    .build()) {
                wf.startWorker(WorkerOptions.defaults()
                        .withHandleSigterm(false)
                        .withWorkerId("unwinding")
                        .withPollInterval(Duration.ofMillis(20))
                        .withStickyWait(Duration.ofMillis(1)));
                List<RunHandle<Integer>> runs = new ArrayList<>();
                for (int i = 0; i < RUNS; i++) {
                    runs.add(wf.start(waiter, i));
                }
                for (int s = 0; s < SIGNALS; s++) {
                    for (RunHandle<Integer> run : runs) {
                        wf.signal(run.id(), "ping", 1);
                    }
                }
                for (RunHandle<Integer> run : runs) {
                    assertThat(run.result(Duration.ofSeconds(60))).isEqualTo(SIGNALS);
                }
            }
        });
    }
}
