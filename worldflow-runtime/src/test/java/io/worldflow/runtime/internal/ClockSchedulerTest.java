package io.worldflow.runtime.internal;

import io.worldflow.runtime.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ClockSchedulerTest {

    /** Long enough for a virtual thread to run a trivial task; only ever waited for in full when nothing is due. */
    private static final long NOT_RUN_MILLIS = 50;

    private final ManualClock clock = ManualClock.start();
    private final ClockScheduler scheduler = new ClockScheduler(clock);
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        scheduler.close();
    }

    private CountDownLatch schedule(Duration after, String name) {
        CountDownLatch done = new CountDownLatch(1);
        scheduler.schedule(clock.instant().plus(after), () -> {
            ran.add(name);
            done.countDown();
        });
        return done;
    }

    private static boolean ran(CountDownLatch latch) throws InterruptedException {
        return latch.await(5, TimeUnit.SECONDS);
    }

    private static boolean stillWaiting(CountDownLatch latch) throws InterruptedException {
        return !latch.await(NOT_RUN_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Test
    void aTaskRunsOnlyOnceTheClockReachesItsInstant() throws InterruptedException {
        CountDownLatch task = schedule(Duration.ofSeconds(10), "task");

        clock.advance(Duration.ofSeconds(9));
        assertThat(stillWaiting(task)).isTrue();

        clock.advance(Duration.ofSeconds(1));
        assertThat(ran(task)).isTrue();
        assertThat(ran).containsExactly("task");
    }

    @Test
    void tasksRunInTheOrderOfTheirInstants() throws InterruptedException {
        CountDownLatch late = schedule(Duration.ofMinutes(3), "late");
        CountDownLatch early = schedule(Duration.ofMinutes(1), "early");
        CountDownLatch middle = schedule(Duration.ofMinutes(2), "middle");

        clock.advance(Duration.ofMinutes(1));
        assertThat(ran(early)).isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(ran(middle)).isTrue();
        assertThat(stillWaiting(late)).isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(ran(late)).isTrue();

        assertThat(ran).containsExactly("early", "middle", "late");
    }

    @Test
    void oneJumpPastSeveralInstantsRunsThemAll() throws InterruptedException {
        CountDownLatch a = schedule(Duration.ofSeconds(1), "a");
        CountDownLatch b = schedule(Duration.ofHours(1), "b");
        CountDownLatch c = schedule(Duration.ofDays(1), "c");

        clock.advance(Duration.ofDays(2));

        assertThat(ran(a) && ran(b) && ran(c)).isTrue();
        assertThat(ran).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void aTaskAtOrBeforeNowRunsAtOnce() throws InterruptedException {
        CountDownLatch now = schedule(Duration.ZERO, "now");
        CountDownLatch past = schedule(Duration.ofSeconds(-30), "past");

        assertThat(ran(now)).isTrue();
        assertThat(ran(past)).isTrue();
    }

    @Test
    void eachTaskRunsOnce() throws InterruptedException {
        CountDownLatch task = schedule(Duration.ofSeconds(1), "once");

        clock.advance(Duration.ofSeconds(1));
        assertThat(ran(task)).isTrue();
        clock.advance(Duration.ofSeconds(1));
        CountDownLatch marker = schedule(Duration.ZERO, "marker");
        assertThat(ran(marker)).isTrue();

        assertThat(ran).containsExactly("once", "marker");
    }

    @Test
    void afterCloseNothingMoreRuns() throws InterruptedException {
        CountDownLatch task = schedule(Duration.ofSeconds(1), "task");

        scheduler.close();
        clock.advance(Duration.ofSeconds(5));

        assertThat(stillWaiting(task)).isTrue();
        assertThat(ran).isEmpty();
    }

    @Test
    void withTheSystemClockATaskDueNowRunsPromptly() throws InterruptedException {
        try (ClockScheduler system = new ClockScheduler(Clock.systemUTC())) {
            CountDownLatch done = new CountDownLatch(1);
            system.schedule(Instant.now().minusSeconds(1), done::countDown);

            assertThat(ran(done)).isTrue();
            assertThat(system.clock()).isEqualTo(Clock.systemUTC());
        }
    }

    @Test
    void withTheSystemClockATaskIsNeverEarly() throws InterruptedException {
        try (ClockScheduler system = new ClockScheduler(Clock.systemUTC())) {
            Instant due = Instant.now().plusMillis(30);
            Instant[] ranAt = new Instant[1];
            CountDownLatch done = new CountDownLatch(1);
            system.schedule(due, () -> {
                ranAt[0] = Instant.now();
                done.countDown();
            });

            assertThat(ran(done)).isTrue();
            assertThat(ranAt[0]).isAfterOrEqualTo(due);
        }
    }

    @Test
    void aCanceledTaskDoesNotRunAndIsDone() throws InterruptedException {
        CountDownLatch canceled = new CountDownLatch(1);
        ClockScheduler.Scheduled task = scheduler.schedule(clock.instant().plusSeconds(10), canceled::countDown);
        CountDownLatch kept = schedule(Duration.ofSeconds(10), "kept");
        assertThat(task.isDone()).isFalse();

        task.cancel();
        clock.advance(Duration.ofSeconds(10));

        assertThat(task.isDone()).isTrue();
        assertThat(ran(kept)).isTrue();
        assertThat(stillWaiting(canceled)).isTrue();
    }

    @Test
    void aCanceledTaskIsLetGoOnEitherClock() {
        try (ClockScheduler system = new ClockScheduler(Clock.systemUTC())) {
            for (ClockScheduler s : List.of(scheduler, system)) {
                Object held = new Object();
                WeakReference<Object> ref = new WeakReference<>(held);
                ClockScheduler.Scheduled task =
                        s.schedule(s.clock().instant().plus(Duration.ofDays(1)), held::hashCode);
                held = null;

                task.cancel();

                assertThat(collected(ref))
                        .as("what a task canceled on " + s.clock() + " refers to")
                        .isTrue();
            }
        }
    }

    @Test
    void aTaskThatRanIsDone() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        ClockScheduler.Scheduled task = scheduler.schedule(clock.instant().plusSeconds(1), done::countDown);

        clock.advance(Duration.ofSeconds(1));

        assertThat(ran(done)).isTrue();
        assertThat(task.isDone()).isTrue();
        task.cancel(); // too late: nothing happens
    }

    private static boolean collected(WeakReference<?> ref) {
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return ref.get() == null;
    }
}
