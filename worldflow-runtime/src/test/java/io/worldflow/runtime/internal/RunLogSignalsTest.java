package io.worldflow.runtime.internal;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the threads of one turn that look for signals read the run's pending signals. */
@Timeout(30)
class RunLogSignalsTest {

    /** A world whose only facet is signals: pending ones read through {@link #read}. */
    private static final class SignalsOnly implements World, Signals {
        final AtomicInteger reads = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        volatile CountDownLatch release = new CountDownLatch(0);
        volatile boolean failNext;
        final List<PendingSignal> pending = new ArrayList<>();

        @Override
        public void revokeUrl(String runId, String tokenId, String actor) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<io.worldflow.spi.RevokedUrl> revokedUrls(String runId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<PendingSignal> pending(String runId) {
            reads.incrementAndGet();
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failNext) {
                failNext = false;
                throw new WorldException("connection lost", true, null);
            }
            return List.copyOf(pending);
        }

        @Override
        public SignalSent send(String runId, String name, Payload payload, String key, String actor) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String name() {
            return "signals-only";
        }

        @Override
        public EventLog eventLog() {
            throw new UnsupportedOperationException();
        }

        @Override
        public TaskQueue taskQueue() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Signals signals() {
            return this;
        }

        @Override
        public RunQueries runQueries() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ScheduleStore schedules() {
            throw new UnsupportedOperationException();
        }

        @Override
        public QueueStore queues() {
            throw new UnsupportedOperationException();
        }

        @Override
        public WorkerAccess workerAccess() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }

    private final SignalsOnly world = new SignalsOnly();
    private final RunLog log = new RunLog(
            new Engine(
                    world,
                    new JsonCodec(),
                    ManualClock.start(),
                    null,
                    null,
                    null,
                    null,
                    null,
                    Duration.ofMillis(200),
                    Duration.ofMinutes(1),
                    io.worldflow.runtime.StepInterceptor.none(),
                    null,
                    io.worldflow.runtime.internal.telemetry.Telemetry.OFF),
            "r",
            1,
            RunStatus.WAITING,
            false);

    private void sent(int n) {
        for (int i = 1; i <= n; i++) {
            world.pending.add(new PendingSignal(i, "r", "go", Payload.NULL, Instant.EPOCH));
        }
    }

    @Test
    void threadsThatLookInOneGenerationShareOneReadAndEachClaimsAnotherSignal() throws Exception {
        sent(10);
        world.release = new CountDownLatch(1);
        Set<Long> claimed = ConcurrentHashMap.newKeySet();
        List<Thread> lookers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lookers.add(Thread.ofVirtual().start(() -> log.claimSignal("go", 0).ifPresent(s -> claimed.add(s.id()))));
        }
        assertThat(world.entered.await(5, TimeUnit.SECONDS)).isTrue();
        // every looker has reached the read under way before it ends
        long until = System.nanoTime() + 5_000_000_000L;
        while (lookers.stream().anyMatch(RunLogSignalsTest::running) && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        world.release.countDown();
        for (Thread t : lookers) {
            t.join();
        }

        assertThat(world.reads).hasValue(1);
        assertThat(claimed).hasSize(10);
        assertThat(log.claimSignal("go", 0)).as("all ten are taken").isEmpty();
        assertThat(world.reads).hasValue(1);
    }

    /** Whether the thread still runs: neither waiting for the read under way nor, as the reader, inside it. */
    private static boolean running(Thread t) {
        Thread.State state = t.getState();
        return state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING;
    }

    @Test
    void aPokeMakesTheNextLookReadAgain() {
        sent(1);
        assertThat(log.claimSignal("go", 0)).map(PendingSignal::id).contains(1L);
        world.pending.add(new PendingSignal(2, "r", "go", Payload.NULL, Instant.EPOCH));
        assertThat(log.claimSignal("go", 0)).as("the same generation's read").isEmpty();

        Optional<PendingSignal> next = log.claimSignal("go", 1);

        assertThat(next).map(PendingSignal::id).contains(2L);
        assertThat(world.reads).hasValue(2);
    }

    @Test
    void aFailedReadIsNotKeptAndTheNextLookReadsAgain() {
        sent(1);
        world.failNext = true;
        assertThatThrownBy(() -> log.claimSignal("go", 0)).isInstanceOf(WorldException.class);

        assertThat(log.claimSignal("go", 0)).map(PendingSignal::id).contains(1L);
        assertThat(world.reads).hasValue(2);
    }
}
