package io.worldflow.examples;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.RetentionOptions;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker configured with {@code worldflow.retention} deletes, by the engine's clock, the runs that finished longer
 * ago than that, and leaves every other run as it was: on the local world, with a manual clock.
 */
@Timeout(60)
class RetentionTest {

    private static final Workflow<String, String> QUICK =
            Workflow.define("retention.quick", String.class, (ctx, in) -> ctx.step("echo", () -> in));
    private static final Workflow<String, String> BROKEN =
            Workflow.define("retention.broken", String.class, (ctx, in) -> {
                throw new IllegalStateException("broken " + in);
            });
    private static final Workflow<String, String> WAITER =
            Workflow.define("retention.waiter", String.class, (ctx, in) -> ctx.awaitSignal("go", String.class));
    private static final Workflow<String, String> SLEEPER =
            Workflow.define("retention.sleeper", String.class, (ctx, in) -> {
                ctx.sleep("nap", Duration.ofDays(60));
                return in;
            });

    @TempDir
    Path tmp;

    @Test
    void theWorkerDeletesRunsThatFinishedLongerAgoThanTheRetentionAndNothingElse() {
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/retention.db")
                .property(RetentionOptions.KEEP_FOR, "30d")
                .register(QUICK)
                .register(BROKEN)
                .register(WAITER)
                .register(SLEEPER)
                .build()) {
            wf.startWorker(WorkerOptions.fromConfig(wf.config())
                    .withHandleSigterm(false)
                    .withPollInterval(Duration.ofMillis(50)));
            String old = wf.start(QUICK, "old").id();
            String broken = wf.start(BROKEN, "broken").id();
            String waiting = wf.start(WAITER, "waiting").id();
            String sleeping = wf.start(SLEEPER, "sleeping").id();
            await(wf, old, "completed", r -> r.status() == RunStatus.COMPLETED);
            await(wf, broken, "failed", r -> r.status() == RunStatus.FAILED);
            await(wf, waiting, "waiting", r -> r.status() == RunStatus.WAITING);
            await(wf, sleeping, "sleeping", r -> r.status() == RunStatus.SLEEPING);
            List<Event> waitingLog = wf.events(waiting);
            List<Event> sleepingLog = wf.events(sleeping);

            // 20 days on, a run that finishes now; the passes so far found nothing old enough
            clock.advance(Duration.ofDays(20));
            String recent = wf.start(QUICK, "recent").id();
            await(wf, recent, "completed", r -> r.status() == RunStatus.COMPLETED);
            assertThat(wf.run(old)).isPresent();

            // 31 days after the first runs finished: a pass deletes them, and them only
            clock.advance(Duration.ofDays(11));
            await(wf, old, "deleted", null);
            await(wf, broken, "deleted", null);
            assertThat(wf.run(recent)).isPresent();
            assertThat(wf.events(waiting)).isEqualTo(waitingLog);
            assertThat(wf.events(sleeping)).isEqualTo(sleepingLog);
            assertThat(wf.run(waiting).orElseThrow().status()).isEqualTo(RunStatus.WAITING);
            assertThat(wf.run(sleeping).orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);

            // the next passes follow the clock: the recent run goes once it too is 30 days old
            clock.advance(Duration.ofDays(20));
            await(wf, recent, "deleted", null);
            assertThat(wf.runs(RunQuery.all()).runs())
                    .extracting(RunInfo::runId)
                    .containsExactlyInAnyOrder(waiting, sleeping);

            // the runs left alone still work: the waiter takes its signal and finishes
            wf.signal(waiting, "go", "now");
            await(wf, waiting, "completed", r -> r.status() == RunStatus.COMPLETED);
        }
    }

    /**
     * Waits (real time, bounded) until the run satisfies {@code condition}, or, when it is null, until the run is gone.
     */
    private static void await(Worldflow wf, String runId, String what, Predicate<RunInfo> condition) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < end) {
            RunInfo info = wf.run(runId).orElse(null);
            if (condition == null ? info == null : info != null && condition.test(info)) {
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("run " + runId + " was not " + what + " within 20s: " + wf.run(runId));
    }
}
