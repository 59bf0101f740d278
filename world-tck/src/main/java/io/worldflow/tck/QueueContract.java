package io.worldflow.tck;

import io.worldflow.ConfigurationException;
import io.worldflow.DuplicateRunException;
import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Queues;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Queues with limits end to end: a run waits (pending) until its queue admits it; the queue's concurrency holds across
 * workers, admitting in submission order as places free up; runs of one key run one at a time in the order submitted;
 * the rate limit spaces starts by its interval; limits are stored in the world, so another worker applies them too;
 * and a run started in an undeclared queue, where queues must be declared, is refused with nothing stored.
 */
public abstract class QueueContract extends WorkflowContractSupport {

    private static final String Q = "tck-limited";

    protected QueueContract(WorldConformanceKit kit) {
        super(kit);
    }

    private final List<Worldflow> others = new ArrayList<>();
    private final List<String> began = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeOthers() {
        others.forEach(Worldflow::close);
    }

    /** Notes that it began, then waits for a signal: it holds its place without holding a thread. */
    private final Workflow<String, String> hold = Workflow.define("tck.queue.hold", String.class, (ctx, in) -> {
        ctx.step("begin", () -> began.add(in));
        return ctx.awaitSignal("go", String.class, Duration.ofDays(1)).orElse("timed out");
    });

    private final Workflow<String, String> quick = Workflow.define(
            "tck.queue.quick",
            String.class,
            (ctx, in) -> ctx.step("begin", () -> {
                began.add(in);
                return in;
            }));

    private final java.util.concurrent.atomic.AtomicInteger busy = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger mostBusy = new java.util.concurrent.atomic.AtomicInteger();

    /** A step that takes a while: its turn executes all along. */
    private final Workflow<String, String> slow = Workflow.define(
            "tck.queue.slow",
            String.class,
            (ctx, in) -> ctx.step("work", () -> {
                mostBusy.accumulateAndGet(busy.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(150);
                } finally {
                    busy.decrementAndGet();
                }
                return in;
            }));

    private Worldflow start(Worldflow.Builder builder, String workerId) {
        Worldflow w = builder.world(new SharedWorld(world))
                .clock(clock)
                .register(hold)
                .register(quick)
                .register(slow)
                .build();
        w.startWorker(workerOptions().withWorkerId(workerId).withQueues(Set.of("default", Q)));
        return w;
    }

    private Worldflow worldflow() {
        wf = start(Worldflow.builder(), "tck-queues");
        return wf;
    }

    private String startIn(Workflow<String, String> workflow, String id, StartOptions options) {
        return wf.start(workflow, id, options.withId(id)).id();
    }

    private QueueInfo describe() {
        return wf.queues().describe(Q).orElseThrow();
    }

    @Test
    void aQueuesConcurrencyAdmitsThatManyAndTheRestInSubmissionOrder() {
        worldflow();
        wf.queues().define(QueueSpec.named(Q).withConcurrency(2));
        for (int i = 1; i <= 5; i++) {
            startIn(hold, "run-" + i, StartOptions.queue(Q));
        }

        awaitStatus("run-1", RunStatus.WAITING);
        awaitStatus("run-2", RunStatus.WAITING);
        assertStaysFor("run-3", Duration.ofMillis(300), RunStatus.PENDING);
        assertThat(began).containsExactlyInAnyOrder("run-1", "run-2");
        assertThat(describe()).satisfies(q -> {
            assertThat(q.running()).isEqualTo(2);
            assertThat(q.waiting()).isEqualTo(3);
            assertThat(q.throttled()).isEqualTo(3);
        });

        wf.signal("run-2", "go", "done");
        awaitStatus("run-2", RunStatus.COMPLETED);
        awaitStatus("run-3", RunStatus.WAITING);
        assertStaysFor("run-4", Duration.ofMillis(200), RunStatus.PENDING);
        assertThat(began.subList(2, 3)).containsExactly("run-3");

        for (int i = 1; i <= 5; i++) {
            String run = "run-" + i;
            if (i != 2) {
                awaitStatus(run, RunStatus.WAITING);
                wf.signal(run, "go", "done");
                awaitStatus(run, RunStatus.COMPLETED);
            }
        }
        assertThat(began.subList(2, 5)).containsExactly("run-3", "run-4", "run-5");
        awaitQueue(q -> q.running() == 0 && q.waiting() == 0);
    }

    @Test
    void runsAWorkerAdmitsBeginThereLeasedWithTheMoveThatAdmitsThem() {
        boolean leasesMoves = kit().leasesAtCreation();
        LeaseWatch watch = new LeaseWatch(world);
        wf = Worldflow.builder().world(watch).clock(clock).register(quick).build();
        // where moves lease, the worker asks for due turns only when told of some, never just in case
        wf.startWorker((leasesMoves ? workerOptions().withPollInterval(Duration.ofMinutes(1)) : workerOptions())
                .withWorkerId("tck-admits")
                .withQueues(Set.of("default", Q)));
        // a worker that has not yet found its queues drained owes its free slots to turns that may be due
        long end = System.nanoTime() + WAIT.toNanos();
        while (watch.asks() == 0 && System.nanoTime() < end) {
            pause(5);
        }
        wf.queues().define(QueueSpec.named(Q).withConcurrency(2));
        List<String> runs = List.of("run-1", "run-2", "run-3", "run-4", "run-5");
        runs.forEach(id -> startIn(quick, id, StartOptions.queue(Q)));

        runs.forEach(id -> awaitStatus(id, RunStatus.COMPLETED));
        assertThat(began).containsExactlyInAnyOrderElementsOf(runs);
        if (leasesMoves) {
            assertThat(watch.leasedAsAdmitted()).containsExactlyInAnyOrderElementsOf(runs);
            assertThat(watch.leasedByAsking()).doesNotContainAnyElementsOf(runs);
        } else {
            assertThat(watch.leasedAsAdmitted()).isEmpty();
            assertThat(watch.leasedByAsking()).containsAll(runs);
        }
    }

    @Test
    void runsOfOneKeyRunOneAtATimeInSubmissionOrderWhileOtherKeysGoOn() {
        worldflow();
        startIn(hold, "a-1", StartOptions.queue(Q).withKey("customer-a"));
        startIn(hold, "a-2", StartOptions.queue(Q).withKey("customer-a"));
        startIn(hold, "b-1", StartOptions.queue(Q).withKey("customer-b"));
        startIn(hold, "a-3", StartOptions.queue(Q).withKey("customer-a"));
        startIn(hold, "free", StartOptions.queue(Q));

        awaitStatus("a-1", RunStatus.WAITING);
        awaitStatus("b-1", RunStatus.WAITING);
        awaitStatus("free", RunStatus.WAITING);
        assertStaysFor("a-2", Duration.ofMillis(300), RunStatus.PENDING);
        assertThat(world.runQueries().get("a-3").orElseThrow().status()).isEqualTo(RunStatus.PENDING);

        wf.signal("a-1", "go", "done");
        awaitStatus("a-2", RunStatus.WAITING);
        assertStaysFor("a-3", Duration.ofMillis(200), RunStatus.PENDING);
        wf.signal("a-2", "go", "done");
        awaitStatus("a-3", RunStatus.WAITING);

        assertThat(began.stream().filter(r -> r.startsWith("a-")).toList()).containsExactly("a-1", "a-2", "a-3");
        assertThat(wf.queues().describe(Q))
                .as("a key keeps order in a queue no one declared: it is stored without limits")
                .hasValueSatisfying(q -> assertThat(q.spec()).isEqualTo(QueueSpec.named(Q)));
    }

    @Test
    void theRateLimitSpacesStartsByItsInterval() {
        worldflow();
        wf.queues().define(QueueSpec.named(Q).withRateLimit(1, Duration.ofSeconds(10)));
        for (int i = 1; i <= 3; i++) {
            startIn(quick, "tick-" + i, StartOptions.queue(Q));
        }

        awaitStatus("tick-1", RunStatus.COMPLETED);
        assertStaysFor("tick-2", Duration.ofMillis(300), RunStatus.PENDING);
        clock.advance(Duration.ofSeconds(9));
        assertStaysFor("tick-2", Duration.ofMillis(200), RunStatus.PENDING);
        clock.advance(Duration.ofSeconds(1));
        awaitStatus("tick-2", RunStatus.COMPLETED);
        assertStaysFor("tick-3", Duration.ofMillis(200), RunStatus.PENDING);
        assertThat(describe().throttled()).isEqualTo(1);
        clock.advance(Duration.ofSeconds(10));
        awaitStatus("tick-3", RunStatus.COMPLETED);
        assertThat(began).containsExactly("tick-1", "tick-2", "tick-3");
    }

    @Test
    void aWorkerAdmitsRateLimitedRunsAheadAndBeginsEachAtItsStart() {
        boolean leasesMoves = kit().leasesAtCreation();
        LeaseWatch watch = new LeaseWatch(world);
        wf = Worldflow.builder().world(watch).clock(clock).register(quick).build();
        wf.startWorker(workerOptions().withWorkerId("tck-ahead").withQueues(Set.of("default", Q)));
        long end = System.nanoTime() + WAIT.toNanos();
        while (watch.asks() == 0 && System.nanoTime() < end) {
            pause(5); // a worker holds runs ahead only once its first lease found its queues drained
        }
        // one start per 200 ms: the first now, the next two within the 400 ms a worker admits ahead, the last beyond
        wf.queues().define(QueueSpec.named(Q).withRateLimit(5, Duration.ofSeconds(1)));
        for (int i = 1; i <= 4; i++) {
            startIn(quick, "tick-" + i, StartOptions.queue(Q));
        }

        awaitStatus("tick-1", RunStatus.COMPLETED);
        if (leasesMoves) {
            end = System.nanoTime() + WAIT.toNanos();
            while (!watch.leasedAsAdmitted().contains("tick-3") && System.nanoTime() < end) {
                pause(5);
            }
            assertThat(watch.leasedAsAdmitted())
                    .as("admitted and leased here before their starts, with the clock standing still")
                    .contains("tick-1", "tick-2", "tick-3")
                    .doesNotContain("tick-4");
        }
        // a late round may start a run up to 25 ms before its interval: tick-2's start is 175 ms on
        assertStaysFor("tick-2", Duration.ofMillis(300), RunStatus.PENDING);
        clock.advance(Duration.ofMillis(174));
        assertStaysFor("tick-2", Duration.ofMillis(200), RunStatus.PENDING);
        clock.advance(Duration.ofMillis(1));
        awaitStatus("tick-2", RunStatus.COMPLETED);
        assertStaysFor("tick-3", Duration.ofMillis(200), RunStatus.PENDING);
        clock.advance(Duration.ofMillis(200));
        awaitStatus("tick-3", RunStatus.COMPLETED);
        assertStaysFor("tick-4", Duration.ofMillis(200), RunStatus.PENDING);
        clock.advance(Duration.ofMillis(200));
        awaitStatus("tick-4", RunStatus.COMPLETED);
        assertThat(began).containsExactly("tick-1", "tick-2", "tick-3", "tick-4");
    }

    @Test
    void limitsAreStoredInTheWorldAndHoldAcrossWorkers() {
        worldflow();
        Worldflow other = start(Worldflow.builder(), "tck-queues-other");
        others.add(other);
        other.queues().define(QueueSpec.named(Q).withConcurrency(1));
        pause(1_100); // another process reads a queue's limits at most a second old

        assertThat(wf.queues().describe(Q).orElseThrow().spec().concurrency()).isEqualTo(1);
        for (int i = 1; i <= 3; i++) {
            (i % 2 == 0 ? other : wf)
                    .start(hold, "run-" + i, StartOptions.queue(Q).withId("run-" + i));
        }

        awaitStatus("run-1", RunStatus.WAITING);
        assertStaysFor("run-2", Duration.ofMillis(300), RunStatus.PENDING);
        other.signal("run-1", "go", "done");
        awaitStatus("run-2", RunStatus.WAITING);
        assertThat(world.runQueries().get("run-3").orElseThrow().status()).isEqualTo(RunStatus.PENDING);
        wf.signal("run-2", "go", "done");
        awaitStatus("run-3", RunStatus.WAITING);
        assertThat(began).containsExactly("run-1", "run-2", "run-3");
        assertThat(wf.queues().list()).extracting(QueueInfo::name).contains(Q);
    }

    @Test
    void looserLimitsAdmitWaitingRunsAtOnce() {
        worldflow();
        wf.queues().define(QueueSpec.named(Q).withConcurrency(1));
        startIn(hold, "run-1", StartOptions.queue(Q));
        startIn(hold, "run-2", StartOptions.queue(Q));
        awaitStatus("run-1", RunStatus.WAITING);
        assertStaysFor("run-2", Duration.ofMillis(200), RunStatus.PENDING);

        wf.queues().define(QueueSpec.named(Q).withConcurrency(2));

        awaitStatus("run-2", RunStatus.WAITING);
    }

    @Test
    void aDeclaredOnlySettingThatIsNeitherTrueNorFalseIsRefusedNamingIt() {
        assertThatThrownBy(() -> Worldflow.builder()
                        .world(world)
                        .clock(clock)
                        .property(Queues.DECLARED_ONLY, "maybe")
                        .build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(Queues.DECLARED_ONLY + " must be true or false, was 'maybe'");
    }

    @Test
    void whereQueuesMustBeDeclaredAnUndeclaredOneIsRefusedWithNothingStored() {
        wf = start(Worldflow.builder().property(Queues.DECLARED_ONLY, "true"), "tck-declared");
        wf.queues().define(QueueSpec.named(Q).withConcurrency(3));

        assertThatThrownBy(
                        () -> wf.start(quick, "x", StartOptions.queue("nowhere").withId("stray")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nowhere'")
                .hasMessageContaining(Queues.DECLARED_ONLY);
        assertThat(world.runQueries().get("stray")).isEmpty();
        assertThat(wf.queues().describe("nowhere")).isEmpty();

        startIn(quick, "fine", StartOptions.queue(Q));
        awaitStatus("fine", RunStatus.COMPLETED);
    }

    @Test
    void aWorkerExecutesNoMoreTurnsOfAQueueAtOnceThanItsLimitPerWorker() {
        worldflow();
        wf.queues().define(QueueSpec.named(Q).withWorkerConcurrency(1));
        for (int i = 1; i <= 4; i++) {
            startIn(slow, "slow-" + i, StartOptions.queue(Q));
        }
        startIn(slow, "elsewhere", StartOptions.defaults());

        for (int i = 1; i <= 4; i++) {
            awaitStatus("slow-" + i, RunStatus.COMPLETED);
        }
        awaitStatus("elsewhere", RunStatus.COMPLETED);

        assertThat(mostBusy.get())
                .as("one turn of the queue at a time, and the default queue's run beside it at most")
                .isBetween(1, 2);
        assertThat(describe().spec().workerConcurrency()).isEqualTo(1);
    }

    /**
     * A worker plans a lease from the per-worker limits it knows. Here the world holds its lease until the limit is
     * defined and the queue's runs are started, so the lease, planned without the limit, takes every due turn of the
     * queue: those past the limit are handed back, and the limit holds.
     */
    @Test
    void turnsLeasedPastAWorkerLimitDefinedWhileTheLeaseWasOnItsWayAreHandedBack() throws Exception {
        LeaseGate gate = new LeaseGate(world);
        Worldflow worker =
                Worldflow.builder().world(gate).clock(clock).register(slow).build();
        others.add(worker);
        gate.arm();
        worker.startWorker(workerOptions().withWorkerId("tck-gated").withQueues(Set.of("default", Q)));
        assertThat(gate.awaitHeld(Duration.ofSeconds(10)))
                .as("the worker asks for the queue's turns with the others, knowing no limit")
                .contains(Q);

        worker.queues().define(QueueSpec.named(Q).withWorkerConcurrency(1));
        wf = Worldflow.builder()
                .world(new SharedWorld(world))
                .clock(clock)
                .register(slow)
                .build();
        for (int i = 1; i <= 4; i++) {
            startIn(slow, "gated-" + i, StartOptions.queue(Q));
        }
        gate.open();

        for (int i = 1; i <= 4; i++) {
            awaitStatus("gated-" + i, RunStatus.COMPLETED);
        }
        assertThat(gate.leasedWhenOpened())
                .as("the held lease took the queue's turns")
                .isGreaterThan(1);
        assertThat(mostBusy.get())
                .as("turns of the queue executing at once on a worker limited to one")
                .isEqualTo(1);
    }

    @Test
    void aDedupIdRefusesASecondActiveRunOrReturnsItAndIsFreeOnceTheRunEnds() {
        worldflow();
        startIn(hold, "first", StartOptions.queue(Q).withDedupId("order-7"));
        awaitStatus("first", RunStatus.WAITING);

        assertThatThrownBy(() -> startIn(hold, "second", StartOptions.queue(Q).withDedupId("order-7")))
                .isInstanceOf(DuplicateRunException.class)
                .hasMessageContaining("order-7")
                .hasMessageContaining("first")
                .satisfies(e -> assertThat(((DuplicateRunException) e).runId()).isEqualTo("first"));
        assertThat(world.runQueries().get("second")).as("nothing stored").isEmpty();
        assertThat(wf.start(hold, "x", StartOptions.queue(Q).withDedupIdReturningExisting("order-7"))
                        .id())
                .isEqualTo("first");
        assertThat(startIn(hold, "other-queue", StartOptions.defaults().withDedupId("order-7")))
                .as("another queue's ids are its own")
                .isEqualTo("other-queue");
        assertThat(wf.queues().list())
                .as("the ids' records are not queues")
                .extracting(QueueInfo::name)
                .doesNotContain("default")
                .allMatch(name -> !name.contains("order-7") && name.chars().noneMatch(Character::isISOControl));

        wf.signal("first", "go", "done");
        awaitStatus("first", RunStatus.COMPLETED);
        assertThat(startIn(hold, "third", StartOptions.queue(Q).withDedupId("order-7")))
                .isEqualTo("third");
        awaitStatus("third", RunStatus.WAITING);
    }

    @Test
    void anUnknownQueueIsNotDescribed() {
        worldflow();

        assertThat(wf.queues().describe("never-defined")).isEmpty();
    }

    private void awaitQueue(java.util.function.Predicate<QueueInfo> condition) {
        long end = System.nanoTime() + WAIT.toNanos();
        QueueInfo last = null;
        while (System.nanoTime() < end) {
            last = describe();
            if (condition.test(last)) {
                return;
            }
            pause(20);
        }
        throw new AssertionError("queue " + Q + " did not reach the expected state; last " + last);
    }
}
