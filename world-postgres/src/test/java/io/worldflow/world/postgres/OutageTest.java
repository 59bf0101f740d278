package io.worldflow.world.postgres;

import io.worldflow.RunHandle;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The database stops while a worker runs and comes back on the same data: the worker rides it out, and
 * every run started before the outage completes afterwards, each step recorded once.
 */
@Timeout(120)
class OutageTest {

    private static final int SLEEPERS = 20;
    private static final int BUSY = 5;

    @TempDir
    Path dir;

    private EmbeddedPostgres pg;
    private Worldflow wf;

    @AfterEach
    void stop() {
        if (wf != null) {
            wf.close();
        }
        if (pg != null) {
            TestPostgres.closeQuietly(pg);
        }
    }

    @Test
    void runsStartedBeforeAnOutageCompleteAfterTheDatabaseReturns() throws Exception {
        int port = TestPostgres.freePort();
        Path data = dir.resolve("data");
        pg = TestPostgres.embedded(data, port);
        AtomicInteger busyAttempts = new AtomicInteger();
        CountDownLatch busyEntered = new CountDownLatch(BUSY);
        CountDownLatch outage = new CountDownLatch(1);
        Workflow<Integer, Integer> sleeper = Workflow.define("outage.sleeper", Integer.class, (ctx, n) -> {
            int a = ctx.step("a", () -> n);
            ctx.sleep("nap", Duration.ofSeconds(2));
            return ctx.step("b", () -> a * 10);
        });
        Workflow<Integer, Integer> busy = Workflow.define("outage.busy", Integer.class, (ctx, n) -> {
            // the first attempt of each is inside this step when the database goes away
            int slow = ctx.step("slow", () -> {
                if (busyAttempts.incrementAndGet() <= BUSY) {
                    busyEntered.countDown();
                    outage.await(30, TimeUnit.SECONDS);
                }
                return n + 1;
            });
            return ctx.step("after", () -> slow * 2);
        });
        Map<String, String> config =
                new HashMap<>(TestPostgres.shared().config("outage").asMap());
        config.put(PostgresWorldProvider.URL, "jdbc:postgresql://localhost:" + port + "/postgres");
        config.put(PostgresWorldProvider.USER, "postgres");
        wf = Worldflow.builder()
                .property("worldflow.world", "postgres")
                .properties(config)
                .register(sleeper)
                .register(busy)
                .build();
        wf.startWorker(WorkerOptions.defaults()
                .withHandleSigterm(false)
                .withWorkerId("outage")
                .withLease(Duration.ofSeconds(2))
                .withPollInterval(Duration.ofMillis(200))
                .withShutdownGrace(Duration.ofSeconds(1)));

        List<RunHandle<Integer>> sleepers = new ArrayList<>();
        for (int i = 0; i < SLEEPERS; i++) {
            sleepers.add(wf.start(sleeper, i));
        }
        List<RunHandle<Integer>> busyRuns = new ArrayList<>();
        for (int i = 0; i < BUSY; i++) {
            busyRuns.add(wf.start(busy, 100 + i));
        }
        assertThat(busyEntered.await(30, TimeUnit.SECONDS)).isTrue();
        awaitSleeping(SLEEPERS);

        pg.close(); // a fast shutdown: connections are cut
        pg = null;
        outage.countDown(); // the busy steps finish while nothing can be recorded
        assertThatThrownBy(() -> wf.start(sleeper, 999))
                .isInstanceOf(WorldException.class)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isTrue());
        // timers come due and leases lapse meanwhile; longer than the pool's connection timeout (5 s), so the
        // appends of the busy steps' results fail rather than wait for the database's return
        Thread.sleep(6_000);
        pg = TestPostgres.embedded(data, port);

        for (int i = 0; i < SLEEPERS; i++) {
            assertThat(sleepers.get(i).result(Duration.ofSeconds(60))).isEqualTo(i * 10);
            assertEachStepRecordedOnce(sleepers.get(i).id(), "a", "b");
        }
        for (int i = 0; i < BUSY; i++) {
            assertThat(busyRuns.get(i).result(Duration.ofSeconds(60))).isEqualTo((101 + i) * 2);
            assertEachStepRecordedOnce(busyRuns.get(i).id(), "slow", "after");
        }
        assertThat(busyAttempts.get())
                .as("the busy steps ran again after their lost results")
                .isGreaterThanOrEqualTo(2 * BUSY);
        assertThat(wf.counts(RunQuery.all()).get(RunStatus.COMPLETED)).isEqualTo((long) SLEEPERS + BUSY);
    }

    private void awaitSleeping(int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (wf.counts(RunQuery.all()).get(RunStatus.SLEEPING) < n) {
            assertThat(System.nanoTime()).as("%d runs sleeping within 30 s", n).isLessThan(end);
            Thread.sleep(20);
        }
    }

    private void assertEachStepRecordedOnce(String runId, String... steps) {
        List<Event> events = wf.events(runId);
        Map<String, Integer> completions = new HashMap<>();
        for (Event e : events) {
            if (e instanceof StepCompleted c) {
                completions.merge(c.stepId(), 1, Integer::sum);
            }
        }
        Map<String, Integer> expected = new HashMap<>();
        for (String s : steps) {
            expected.put(s, 1);
        }
        assertThat(completions).as("step completions of %s", runId).isEqualTo(expected);
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).seq()).isEqualTo(i);
        }
    }
}
