package io.worldflow.tck;

import io.worldflow.RunStatus;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.TaskQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Lease-based delivery of run turns: what is due, in which order, to whom, and what happens when a
 * lease lapses, is extended, completed or released. Turns due later (timers) are {@link TimersContract}.
 */
public abstract class TaskQueueContract extends WorldContractSupport {

    protected TaskQueueContract(WorldConformanceKit kit) {
        super(kit);
    }

    private boolean supportsPush() {
        return kit().supportsPush();
    }

    /** Whether this path leases at creation: the plain path never does. */
    private boolean leasesAtCreation(AccessPath path) {
        return path == AccessPath.WORLD && kit().leasesAtCreation();
    }

    // ---- what is due ----

    @Test
    void createdRunIsLeasableAtOnce() {
        create(newRun("order-1", "billing", 3, now()));

        List<Lease> leases = tasks().lease("worker-a", Set.of("billing"), 10, LEASE);

        assertThat(leases).hasSize(1);
        Lease lease = leases.getFirst();
        assertThat(lease.runId()).isEqualTo("order-1");
        assertThat(lease.queue()).isEqualTo("billing");
        assertThat(lease.token()).isNotBlank();
        assertThat(lease.expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(lease.deliveries()).isEqualTo(1);
    }

    @Test
    void delayedStartIsLeasableAtAvailableAtAndNotBefore() {
        Instant availableAt = now().plus(Duration.ofHours(1));
        create(newRun("order-1", QUEUE, 0, availableAt));

        assertNothingDue();
        clock.set(availableAt.minus(MS));
        assertNothingDue();
        clock.set(availableAt);
        leaseRun("order-1");
    }

    @Test
    void leaseReturnsAtMostMax() {
        for (int i = 0; i < 5; i++) {
            create("run-" + i);
        }

        assertThat(lease("w", 3)).hasSize(3);
        assertThat(lease("w", 3)).hasSize(2);
        assertThat(lease("w", 3)).isEmpty();
    }

    @Test
    void leaseReturnsOnlyRequestedQueues() {
        create(newRun("a-1", "alpha", 0, now()));
        create(newRun("b-1", "beta", 0, now()));
        create(newRun("c-1", "gamma", 0, now()));

        assertThat(tasks().lease("w", Set.of("beta"), 10, LEASE))
                .extracting(Lease::runId)
                .containsExactly("b-1");
        assertThat(tasks().lease("w", Set.of("nothing-here"), 10, LEASE)).isEmpty();
        assertThat(tasks().lease("w", Set.of("alpha", "gamma", "beta"), 10, LEASE))
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("a-1", "c-1");
    }

    @Test
    void leasePrefersHigherPriority() {
        create(newRun("low", QUEUE, 0, now()));
        clock.advance(Duration.ofSeconds(1));
        create(newRun("high", QUEUE, 10, now()));
        clock.advance(Duration.ofSeconds(1));
        create(newRun("negative", QUEUE, -5, now()));
        clock.advance(Duration.ofSeconds(1));
        create(newRun("middle", QUEUE, 5, now()));

        assertThat(drainOneByOne(Set.of(QUEUE))).containsExactly("high", "middle", "low", "negative");
    }

    @Test
    void leaseTakesEarlierDueFirstWithinAPriority() {
        Instant start = now();
        create(newRun("z-third", QUEUE, 0, start.plusSeconds(3)));
        create(newRun("a-second", QUEUE, 0, start.plusSeconds(2)));
        create(newRun("m-first", QUEUE, 0, start.plusSeconds(1)));
        clock.advance(Duration.ofSeconds(10));

        assertThat(drainOneByOne(Set.of(QUEUE))).containsExactly("m-first", "a-second", "z-third");
    }

    @Test
    void leaseWithMaxTakesTheMostUrgentTurns() {
        Instant start = now();
        create(newRun("old-low", QUEUE, 0, start));
        create(newRun("new-high", QUEUE, 9, start.plusSeconds(2)));
        create(newRun("old-high", QUEUE, 9, start.plusSeconds(1)));
        create(newRun("new-low", QUEUE, 0, start.plusSeconds(3)));
        clock.advance(Duration.ofSeconds(5));

        assertThat(lease("w", 2)).extracting(Lease::runId).containsExactlyInAnyOrder("old-high", "new-high");
        assertThat(lease("w", 1)).extracting(Lease::runId).containsExactly("old-low");
    }

    @Test
    void leaseOverSeveralQueuesTakesTheMostUrgentTurnsOfAll() {
        Instant start = now();
        create(newRun("alpha-low-first", "alpha", 0, start));
        create(newRun("alpha-high", "alpha", 7, start.plusSeconds(3)));
        create(newRun("beta-low", "beta", 0, start.plusSeconds(1)));
        create(newRun("beta-high", "beta", 7, start.plusSeconds(2)));
        create(newRun("gamma-mid", "gamma", 3, start.plusSeconds(4)));
        create(newRun("gamma-low-late", "gamma", 0, start.plusSeconds(60)));
        clock.advance(Duration.ofSeconds(5));
        Set<String> all = Set.of("alpha", "beta", "gamma");

        assertThat(tasks().lease("w", all, 2, LEASE))
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("beta-high", "alpha-high");
        assertThat(tasks().lease("w", all, 2, LEASE))
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("gamma-mid", "alpha-low-first");
        assertThat(tasks().lease("w", all, 5, LEASE)).extracting(Lease::runId).containsExactly("beta-low");
    }

    @Test
    void aLeasedTurnIsNotHandedOutTwice() {
        create("order-1");
        leaseRun("order-1");

        assertThat(lease("worker-b", 10)).isEmpty();
        clock.advance(LEASE.minus(MS));
        assertThat(lease("worker-b", 10)).isEmpty();
    }

    // ---- expiry, extension and stale leases ----

    @Test
    void expiredLeaseIsRedeliveredToAnotherWorker() {
        create("order-1");
        Lease first = tasks().lease("worker-a", Set.of(QUEUE), 1, LEASE).getFirst();

        clock.set(first.expiresAt().plus(MS));
        List<Lease> again = tasks().lease("worker-b", Set.of(QUEUE), 1, LEASE);

        assertThat(again).hasSize(1);
        Lease second = again.getFirst();
        assertThat(second.runId()).isEqualTo("order-1");
        assertThat(second.token()).isNotEqualTo(first.token());
        assertThat(second.deliveries()).isEqualTo(2);
        assertThat(second.expiresAt()).isEqualTo(now().plus(LEASE));

        clock.set(second.expiresAt().plus(MS));
        assertThat(lease("worker-c", 1))
                .singleElement()
                .extracting(Lease::deliveries)
                .isEqualTo(3);
    }

    @Test
    void staleLeaseCannotExtendCompleteOrRelease() {
        create("order-1");
        Lease stale = leaseRun("order-1");
        clock.set(stale.expiresAt().plus(MS));
        Lease current = leaseRun("order-1");

        assertThat(tasks().extend(stale, LEASE)).isEmpty();
        tasks().complete(stale, null);
        tasks().release(stale);
        tasks().complete(stale, now().plus(Duration.ofSeconds(1)));

        assertThat(lease("worker-c", 10))
                .as("release by a stale lease hands nothing out")
                .isEmpty();
        assertThat(tasks().extend(current, LEASE))
                .as("the current lease is untouched")
                .isPresent();
        tasks().complete(current, null);
        clock.advance(Duration.ofHours(1));
        assertNothingDue();
    }

    @Test
    void extendKeepsTheLease() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        clock.advance(LEASE.minusSeconds(5));

        Optional<Lease> extended = tasks().extend(lease, Duration.ofMinutes(2));

        assertThat(extended).isPresent();
        assertThat(extended.get().expiresAt()).isEqualTo(now().plus(Duration.ofMinutes(2)));
        assertThat(extended.get().runId()).isEqualTo("order-1");
        clock.set(lease.expiresAt().plus(MS));
        assertThat(lease("worker-b", 10))
                .as("not redelivered after the original expiry")
                .isEmpty();
        clock.set(extended.get().expiresAt().plus(MS));
        assertThat(lease("worker-b", 10)).extracting(Lease::runId).containsExactly("order-1");
    }

    @Test
    void aLeaseForNoTimeOrLessIsRefusedAndChangesNothing() {
        create("order-1");
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            assertThatThrownBy(() -> tasks().lease("worker-a", Set.of(QUEUE), 10, bad))
                    .as("lease for %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaseFor");
        }
        assertThatThrownBy(() -> tasks().lease("worker-a", Set.of(QUEUE), 10, LEASE, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lookahead");
        Lease lease = leaseRun("order-1");
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            assertThatThrownBy(() -> tasks().extend(lease, bad))
                    .as("extend by %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaseFor");
        }
        clock.set(lease.expiresAt().minus(MS));
        assertThat(lease("worker-b", 10))
                .as("the lease still runs until its expiry")
                .isEmpty();
        clock.set(lease.expiresAt().plus(MS));
        assertThat(lease("worker-b", 10)).extracting(Lease::runId).containsExactly("order-1");
    }

    @Test
    void extendedLeaseCanStillComplete() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        Lease extended = tasks().extend(lease, LEASE).orElseThrow();

        tasks().complete(extended, null);

        clock.advance(Duration.ofHours(1));
        assertNothingDue();
    }

    @Test
    void extendAfterCompleteReturnsEmpty() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        tasks().complete(lease, null);

        assertThat(tasks().extend(lease, LEASE)).isEmpty();
    }

    @Test
    void completedLeaseIsStaleForTheNextTurn() {
        create("order-1");
        Lease first = leaseRun("order-1");
        tasks().complete(first, null);
        tasks().enqueue("order-1", now());
        Lease second = leaseRun("order-1");

        tasks().complete(first, null);
        tasks().release(first);

        assertThat(tasks().extend(second, LEASE)).isPresent();
        assertThat(lease("worker-c", 10)).isEmpty();
    }

    // ---- complete, release, enqueue ----

    @Test
    void completeWithoutWakeAtRemovesTheTurn() {
        create("order-1");

        tasks().complete(leaseRun("order-1"), null);

        assertNothingDue();
        assertThat(tasks().nextDue(Set.of(QUEUE))).isEmpty();
        clock.advance(Duration.ofDays(30));
        assertNothingDue();
    }

    @Test
    void enqueueWhileLeasedIsNotLost() {
        create("order-1");
        Lease lease = leaseRun("order-1");

        tasks().enqueue("order-1", now());
        assertThat(lease("worker-b", 10)).as("still leased").isEmpty();
        tasks().complete(lease, null);

        leaseRun("order-1");
    }

    @Test
    void enqueueWhileLeasedWinsOverALaterWakeAt() {
        create("order-1");
        Lease lease = leaseRun("order-1");

        tasks().enqueue("order-1", now());
        tasks().complete(lease, now().plus(Duration.ofHours(1)));

        leaseRun("order-1");
    }

    @Test
    void enqueueMakesAnIdleRunDue() {
        create("order-1");
        tasks().complete(leaseRun("order-1"), null);

        tasks().enqueue("order-1", now());

        assertThat(leaseRun("order-1").deliveries()).isEqualTo(1);
    }

    @Test
    void enqueueOfAnAlreadyDueRunKeepsOneTurn() {
        create("order-1");

        tasks().enqueue("order-1", now());
        tasks().enqueue("order-1", now());

        assertThat(lease("w", 10)).extracting(Lease::runId).containsExactly("order-1");
        assertThat(lease("w", 10)).isEmpty();
    }

    @Test
    void enqueueForAnUnknownRunIsANoOp() {
        tasks().enqueue("ghost", now());

        assertNothingDue();
        assertThat(queries().get("ghost")).isEmpty();
    }

    @Test
    void enqueueForAFinishedRunIsANoOp() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        tasks().complete(lease, null);
        finish("order-1");

        tasks().enqueue("order-1", now());

        assertNothingDue();
        assertThat(tasks().nextDue(Set.of(QUEUE))).isEmpty();
    }

    @Test
    void releaseMakesTheTurnDueAtOnce() {
        create("order-1");
        Lease lease = leaseRun("order-1");

        tasks().release(lease);

        List<Lease> again = lease("worker-b", 10);
        assertThat(again).extracting(Lease::runId).containsExactly("order-1");
        assertThat(again.getFirst().token()).isNotEqualTo(lease.token());
        assertThat(tasks().extend(lease, LEASE))
                .as("the released lease is gone")
                .isEmpty();
    }

    @Test
    void deliveriesStartAgainForTheNextTurn() {
        create("order-1");
        Lease first = leaseRun("order-1");
        clock.set(first.expiresAt().plus(MS));
        Lease second = leaseRun("order-1");
        assertThat(second.deliveries()).isEqualTo(2);

        tasks().complete(second, now().plusSeconds(10));
        clock.advance(Duration.ofSeconds(10));

        assertThat(leaseRun("order-1").deliveries()).isEqualTo(1);
    }

    // ---- a turn leased as its run is created ----

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void aTurnLeasedAtCreationBelongsToTheCallerAlone(AccessPath path) {
        CreateResult created = path.of(world).createLeased(newRun("order-1"), "worker-a", LEASE);

        assertThat(created.created()).isTrue();
        assertThat(created.run().status()).isEqualTo(RunStatus.PENDING);
        assertThat(created.run().logLength()).isEqualTo(1);
        if (!leasesAtCreation(path)) {
            assertThat(created.lease())
                    .as("a path that does not lease at creation leases nothing")
                    .isNull();
            leaseRun("order-1");
            return;
        }
        Lease lease = created.lease();
        assertThat(lease).isNotNull();
        assertThat(lease.runId()).isEqualTo("order-1");
        assertThat(lease.queue()).isEqualTo(QUEUE);
        assertThat(lease.token()).isNotBlank();
        assertThat(lease.expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(lease.deliveries()).isEqualTo(1);
        assertThat(info("order-1").status()).isEqualTo(RunStatus.PENDING);

        assertNothingDue();
        clock.set(lease.expiresAt().minus(MS));
        assertNothingDue();
        Lease extended = tasks().extend(lease, LEASE).orElseThrow();
        tasks().complete(extended, null);
        clock.advance(Duration.ofHours(1));
        assertNothingDue();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void aTurnLeasedAtCreationIsDeliveredAgainWhenItsLeaseLapses(AccessPath path) {
        Lease first = path.of(world)
                .createLeased(newRun("order-1"), "worker-a", LEASE)
                .lease();
        if (!leasesAtCreation(path)) {
            assertThat(first).isNull();
            return;
        }
        clock.set(first.expiresAt().plus(MS));

        Lease again = leaseRun("order-1");
        assertThat(again.token()).isNotEqualTo(first.token());
        assertThat(again.deliveries()).isEqualTo(2);
        assertThat(tasks().extend(first, LEASE)).as("the lapsed lease is stale").isEmpty();
        tasks().complete(first, null);
        assertThat(tasks().extend(again, LEASE))
                .as("the stale lease's complete changed nothing")
                .isPresent();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void aTurnLeasedAtCreationIsNotLostOnReopen(AccessPath path) {
        Lease lease = path.of(world)
                .createLeased(newRun("order-1"), "worker-a", LEASE)
                .lease();

        reopen();

        clock.set((lease == null ? now() : lease.expiresAt()).plus(MS));
        assertThat(lease("after-restart", 10)).extracting(Lease::runId).containsExactly("order-1");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void createLeasedOfAnIdThatExistsLeasesNothingAndChangesNothing(AccessPath path) {
        create("order-1");

        CreateResult again = path.of(world).createLeased(newRun("order-1"), "worker-a", LEASE);

        assertThat(again.created()).isFalse();
        assertThat(again.lease()).isNull();
        assertThat(again.run().logLength()).isEqualTo(1);
        leaseRun("order-1");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void createLeasedOfADelayedStartLeasesNothingAndTheTurnIsDueAtItsTime(AccessPath path) {
        Instant availableAt = now().plus(Duration.ofMinutes(5));

        CreateResult created = path.of(world).createLeased(newRun("order-1", QUEUE, 0, availableAt), "worker-a", LEASE);

        assertThat(created.created()).isTrue();
        assertThat(created.lease()).isNull();
        assertNothingDue();
        clock.set(availableAt);
        leaseRun("order-1");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void createLeasedForNoTimeOrLessIsRefusedAndCreatesNothing(AccessPath path) {
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            assertThatThrownBy(() -> path.of(world).createLeased(newRun("order-1"), "worker-a", bad))
                    .as("createLeased for %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaseFor");
            assertThat(queries().get("order-1"))
                    .as("no run after a refused createLeased")
                    .isEmpty();
        }
        assertNothingDue();
    }

    // ---- durability and concurrency ----

    @Test
    void aLeasedTurnIsNotLostOnReopen() {
        create("order-1");
        Lease lease = leaseRun("order-1");

        reopen();

        clock.set(lease.expiresAt().plus(MS));
        assertThat(lease("after-restart", 10)).extracting(Lease::runId).containsExactly("order-1");
    }

    @Test
    void concurrentLeasersNeverReceiveTheSameRun() throws Exception {
        int runs = 200;
        int workers = 8;
        for (int i = 0; i < runs; i++) {
            create(String.format("run-%03d", i));
        }
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Lease> all = new ArrayList<>();
        try {
            List<Future<List<Lease>>> futures = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                String worker = "worker-" + w;
                futures.add(pool.submit(() -> {
                    go.await();
                    List<Lease> mine = new ArrayList<>();
                    for (List<Lease> got = lease(worker, 7); !got.isEmpty(); got = lease(worker, 7)) {
                        assertThat(got.size()).isLessThanOrEqualTo(7);
                        mine.addAll(got);
                    }
                    return mine;
                }));
            }
            go.countDown();
            for (Future<List<Lease>> f : futures) {
                all.addAll(f.get(45, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(all).extracting(Lease::runId).doesNotHaveDuplicates().hasSize(runs);
        assertThat(all).extracting(Lease::token).doesNotHaveDuplicates();
        assertNothingDue();
    }

    // ---- push ----

    @Test
    void subscribeIsToldAboutANewRun() throws Exception {
        assumeTrue(supportsPush(), "the world has no push support");

        Instant told = toldWhile(at -> !at.isAfter(now()), () -> create("order-1"));

        assertThat(told).isBeforeOrEqualTo(now());
    }

    @Test
    void subscribeIsToldWhenADelayedRunWillBeDue() throws Exception {
        assumeTrue(supportsPush(), "the world has no push support");
        Instant availableAt = now().plus(Duration.ofMinutes(5));

        Instant told =
                toldWhile(at -> !at.isAfter(availableAt), () -> create(newRun("order-1", QUEUE, 0, availableAt)));

        assertThat(told).isBeforeOrEqualTo(availableAt);
    }

    @Test
    void subscribeIsToldAboutAnEnqueuedTurn() throws Exception {
        assumeTrue(supportsPush(), "the world has no push support");
        create("order-1");
        tasks().complete(leaseRun("order-1"), null);

        Instant told = toldWhile(at -> !at.isAfter(now()), () -> tasks().enqueue("order-1", now()));

        assertThat(told).isBeforeOrEqualTo(now());
    }

    @Test
    void subscribeIsToldAboutATurnDueLater() throws Exception {
        assumeTrue(supportsPush(), "the world has no push support");
        create("order-1");
        Lease lease = leaseRun("order-1");
        Instant wakeAt = now().plus(Duration.ofMinutes(10));

        Instant told = toldWhile(at -> !at.isAfter(wakeAt), () -> tasks().complete(lease, wakeAt));

        assertThat(told).isBeforeOrEqualTo(wakeAt);
    }

    @Test
    void subscribeIsToldAboutATurnMovedToAnotherQueue() throws Exception {
        assumeTrue(supportsPush(), "the world has no push support");
        String waitIn = QUEUE + "\u001fwaiting";
        create(newRun("order-1", QUEUE, 0, now()).waitingIn(waitIn, null));
        Instant at = now().plusSeconds(1);

        Instant told = toldWhile(t -> !t.isAfter(at), () -> tasks().move(List.of("order-1"), waitIn, QUEUE, at));

        assertThat(told).isBeforeOrEqualTo(at);
    }

    @Test
    void closedSubscriptionIsNoLongerTold() throws Exception {
        assumeTrue(supportsPush(), "the world has no push support");
        List<Instant> closedOne = new CopyOnWriteArrayList<>();
        TaskQueue.Subscription closed = tasks().subscribe(closedOne::add);
        closed.close();
        closed.close(); // closing twice is harmless

        toldWhile(at -> true, () -> create("order-1"));

        assertThat(closedOne).isEmpty();
    }

    /**
     * Subscribes, runs {@code action}, and waits (without moving the clock) for the first instant the
     * listener is given that is {@code wanted}.
     */
    private Instant toldWhile(Predicate<Instant> wanted, Runnable action) throws Exception {
        CompletableFuture<Instant> told = new CompletableFuture<>();
        TaskQueue.Subscription subscription = tasks().subscribe(at -> {
            if (at != null && wanted.test(at)) {
                told.complete(at);
            }
        });
        try {
            action.run();
            return told.get(10, TimeUnit.SECONDS);
        } finally {
            subscription.close();
        }
    }
}
