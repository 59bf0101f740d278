package io.worldflow.world.aws;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A timer days away survives the world being closed and opened again, and fires once, at its time. */
class DurableTimerTest {

    private final AwsWorlds worlds = new AwsWorlds();
    private final AtomicInteger after = new AtomicInteger();
    private Worldflow wf;

    @AfterEach
    void close() {
        if (wf != null) {
            wf.close();
        }
        worlds.close();
    }

    private Worldflow worker(World world, Workflow<?, ?> w) {
        wf = Worldflow.builder().world(world).clock(worlds.clock).register(w).build();
        wf.startWorker(WorkerOptions.defaults()
                .withHandleSigterm(false)
                .withPollInterval(Duration.ofMillis(50))
                .withShutdownGrace(Duration.ofSeconds(2))
                .withWorkerId("timers"));
        return wf;
    }

    private static void awaitStatus(World world, String runId, RunStatus status) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (world.runQueries().get(runId).orElseThrow().status() != status) {
            assertThat(System.nanoTime()).as("run %s becomes %s", runId, status).isLessThan(end);
            Thread.onSpinWait();
        }
    }

    @Test
    void aTimerDaysAwayFiresAfterTheWorldIsClosedAndReopened() {
        Workflow<String, String> w = Workflow.define("timers.days", String.class, (ctx, in) -> {
            ctx.sleep("cool-off", Duration.ofDays(4));
            return ctx.step("after", () -> "woke" + after.incrementAndGet());
        });
        World first = worlds.open();
        worker(first, w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(first, run.id(), RunStatus.SLEEPING);
        Instant fireAt = wf.events(run.id()).stream()
                .filter(e -> e instanceof TimerScheduled)
                .map(e -> ((TimerScheduled) e).fireAt())
                .findFirst()
                .orElseThrow();
        wf.close();
        first.close();

        World second = worlds.open();
        assertThat(second.taskQueue().nextDue(Set.of("default")))
                .as("the timer is durable")
                .contains(fireAt);
        worker(second, w);
        worlds.clock.set(fireAt.minusSeconds(1));
        assertThat(second.taskQueue().lease("probe", Set.of("default"), 10, Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(second.runQueries().get(run.id()).orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        worlds.clock.set(fireAt);

        assertThat(wf.handle(run.id(), String.class).result(Duration.ofSeconds(20)))
                .isEqualTo("woke1");
        assertThat(wf.events(run.id()).stream().filter(e -> e instanceof TimerFired))
                .hasSize(1);
        assertThat(after.get()).isEqualTo(1);
    }
}
