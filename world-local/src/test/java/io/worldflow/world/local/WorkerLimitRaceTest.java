package io.worldflow.world.local;

import io.worldflow.QueueSpec;
import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.Append;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker plans a lease from the per-worker limits it knows; a limit defined while that lease is on its way must still
 * hold. The world here holds one lease call until the limit is defined and the queue's runs are started, so the lease,
 * planned without the limit, takes every due turn of the queue: the worker hands back those past the limit.
 */
class WorkerLimitRaceTest extends LocalWorldTestSupport {

    private static final String Q = "limited";

    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger mostBusy = new AtomicInteger();

    private final Workflow<String, String> slow = Workflow.define(
            "race.slow",
            String.class,
            (ctx, in) -> ctx.step("work", () -> {
                mostBusy.accumulateAndGet(busy.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(100);
                } finally {
                    busy.decrementAndGet();
                }
                return in;
            }));

    @Test
    void turnsLeasedPastALimitDefinedWhileTheLeaseWasPlannedAreHandedBack() throws Exception {
        GatedWorld gated = new GatedWorld(world);
        try (Worldflow worker = Worldflow.builder()
                        .world(gated)
                        .clock(clock)
                        .register(slow)
                        .build();
                Worldflow client = Worldflow.builder()
                        .world(world)
                        .clock(clock)
                        .register(slow)
                        .build()) {
            worker.startWorker(WorkerOptions.defaults()
                    .withHandleSigterm(false)
                    .withQueues(Set.of(QUEUE, Q))
                    .withConcurrency(8)
                    .withPollInterval(Duration.ofMillis(20))
                    .withShutdownGrace(Duration.ofSeconds(2)));

            gated.arm();
            assertThat(gated.held.await(10, TimeUnit.SECONDS))
                    .as("the worker asks for turns")
                    .isTrue();
            assertThat(gated.heldFor.get())
                    .as("planned without a limit: the queue asked with the others")
                    .contains(Q);

            worker.queues().define(QueueSpec.named(Q).withWorkerConcurrency(1));
            List<RunHandle<String>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                runs.add(client.start(slow, "r" + i, StartOptions.queue(Q)));
            }
            gated.go.countDown();

            for (RunHandle<String> run : runs) {
                assertThat(run.result(Duration.ofSeconds(20))).startsWith("r");
            }
            assertThat(gated.leasedInHeldCall.get())
                    .as("the held lease took the queue's turns")
                    .isGreaterThan(1);
            assertThat(mostBusy.get())
                    .as("turns of the queue executing at once on a worker limited to one")
                    .isEqualTo(1);
        }
    }

    /** The local world, with one lease call held, once armed, until {@link #go} opens. */
    private static final class GatedWorld implements World {
        private final World world;
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);
        final AtomicReference<Set<String>> heldFor = new AtomicReference<>();
        final AtomicInteger leasedInHeldCall = new AtomicInteger();
        private volatile boolean armed;

        GatedWorld(World world) {
            this.world = world;
        }

        void arm() {
            armed = true;
        }

        @Override
        public String name() {
            return world.name();
        }

        @Override
        public EventLog eventLog() {
            return world.eventLog();
        }

        @Override
        public TaskQueue taskQueue() {
            return world.taskQueue();
        }

        @Override
        public Signals signals() {
            return world.signals();
        }

        @Override
        public RunQueries runQueries() {
            return world.runQueries();
        }

        @Override
        public ScheduleStore schedules() {
            return world.schedules();
        }

        @Override
        public QueueStore queues() {
            return world.queues();
        }

        @Override
        public WorkerAccess workerAccess() {
            WorkerAccess access = world.workerAccess();
            return new WorkerAccess() {
                @Override
                public LeasedRuns leaseAndLoad(
                        String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
                    boolean holdThis;
                    synchronized (GatedWorld.this) {
                        holdThis = armed;
                        armed = false;
                    }
                    if (!holdThis) {
                        return access.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
                    }
                    heldFor.set(queues);
                    held.countDown();
                    try {
                        go.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    LeasedRuns got = access.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
                    leasedInHeldCall.set(got.leases().size());
                    return got;
                }

                @Override
                public Map<String, LoadedRun> load(Collection<String> runIds) {
                    return access.load(runIds);
                }

                @Override
                public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
                    return access.createLeased(run, workerId, leaseFor);
                }

                @Override
                public LeasedAppends appendLeasingStarts(
                        List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
                    return access.appendLeasingStarts(appends, startsToLease, workerId, leaseFor);
                }

                @Override
                public boolean appendsInProcess() {
                    return access.appendsInProcess();
                }
            };
        }

        @Override
        public void close() {
            // the test's world is closed by LocalWorldTestSupport
        }
    }
}
