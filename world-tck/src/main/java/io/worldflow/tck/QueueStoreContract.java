package io.worldflow.tck;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.StoredQueue;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Queues as a world keeps them: versioned records written by compare and set, listed by name, kept across a reopen;
 * and runs that wait to be admitted: their first turns kept in a queue of their own, listed in leasing order with their
 * ordering keys, never leased from the run's queue until they are moved there.
 */
public abstract class QueueStoreContract extends WorldContractSupport {

    private static final String PAY = "payments";
    private static final String WAIT = "payments\u001fwaiting";

    protected QueueStoreContract(WorldConformanceKit kit) {
        super(kit);
    }

    private QueueStore store() {
        return world.queues();
    }

    private StoredQueue queue(String name) {
        return new StoredQueue(name, "{\"limits\":\"" + name + "\",\"text\":\"é ✓ \\\"quoted\\\"\"}", 1, now());
    }

    private NewRun waiting(String runId, String key, int priority, Instant availableAt) {
        return newRun(runId, PAY, priority, availableAt).waitingIn(WAIT, key);
    }

    private List<Lease> leasePayments() {
        return tasks().lease("worker-a", Set.of(PAY), 100, LEASE);
    }

    // ---- the records ----

    @Test
    void aCreatedQueueReadsBackAsWritten() {
        StoredQueue q = queue(PAY);

        assertThat(store().create(q)).isTrue();

        assertThat(store().get(PAY)).contains(q);
        assertThat(store().get("other")).isEmpty();
    }

    @Test
    void creatingANameThatExistsChangesNothing() {
        StoredQueue first = queue(PAY);
        store().create(first);

        assertThat(store().create(new StoredQueue(PAY, "{\"other\":true}", 1, now().plus(MS))))
                .isFalse();

        assertThat(store().get(PAY)).contains(first);
    }

    @Test
    void aCreateOfAVersionOtherThanOneIsRefusedAndStoresNothing() {
        StoredQueue v2 = new StoredQueue(PAY, "{}", 2, now());

        assertThatThrownBy(() -> store().create(v2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version");
        assertThat(store().get(PAY)).isEmpty();
    }

    @Test
    void replaceComparesAndSetsTheVersion() {
        StoredQueue v1 = queue(PAY);
        store().create(v1);
        clock.advance(Duration.ofSeconds(1));
        StoredQueue v2 = v1.next("{\"admitted\":[\"a\"]}", now());

        assertThat(store().replace(v2)).isTrue();
        assertThat(store().get(PAY)).contains(v2);

        assertThat(store().replace(v1.next("{\"admitted\":[\"b\"]}", now())))
                .as("a replace of a version already replaced")
                .isFalse();
        assertThat(store().replace(v2.next("x", now()).next("y", now())))
                .as("a replace that skips a version")
                .isFalse();
        assertThat(store().get(PAY)).contains(v2);
        assertThat(store().replace(queue("missing").next("{}", now())))
                .as("a replace of a queue that does not exist")
                .isFalse();
        assertThat(store().get("missing")).isEmpty();
    }

    @Test
    void ofConcurrentReplacesOfOneVersionExactlyOneWins() throws Exception {
        StoredQueue v1 = queue(PAY);
        store().create(v1);
        int writers = 6;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Boolean>> wins = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                StoredQueue mine = v1.next("{\"writer\":" + w + "}", now());
                wins.add(pool.submit(() -> {
                    go.await();
                    return store().replace(mine);
                }));
            }
            go.countDown();
            int won = 0;
            for (Future<Boolean> f : wins) {
                won += f.get() ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(store().get(PAY).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void deleteRemovesTheQueueOnce() {
        store().create(queue(PAY));

        assertThat(store().delete(PAY)).isTrue();
        assertThat(store().delete(PAY)).isFalse();
        assertThat(store().get(PAY)).isEmpty();
        assertThat(store().create(queue(PAY))).as("the name is free again").isTrue();
    }

    @Test
    void listPagesInNameOrder() {
        for (String name : List.of("c", "a", "e", "b", "d")) {
            store().create(queue(name));
        }

        assertThat(store().list(null, 2)).extracting(StoredQueue::name).containsExactly("a", "b");
        assertThat(store().list("b", 2)).extracting(StoredQueue::name).containsExactly("c", "d");
        assertThat(store().list("d", 2)).extracting(StoredQueue::name).containsExactly("e");
        assertThat(store().list("e", 2)).isEmpty();
        assertThatThrownBy(() -> store().list(null, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    @Test
    void queuesAreKeptAcrossAReopen() {
        StoredQueue q = queue(PAY);
        store().create(q);

        reopen();

        assertThat(store().get(PAY)).contains(q);
    }

    // ---- runs waiting to be admitted ----

    @Test
    void aWaitingRunIsPendingInItsQueueButItsTurnIsNotLeasedFromThere() {
        create(waiting("order-1", "customer-7", 0, now()));

        assertThat(info("order-1").status()).isEqualTo(RunStatus.PENDING);
        assertThat(info("order-1").queue()).isEqualTo(PAY);
        assertThat(leasePayments()).isEmpty();
        assertThat(tasks().waiting(WAIT, 10)).containsExactly(new WaitingTurn("order-1", "customer-7", 0, now()));
        assertThat(tasks().waiting(PAY, 10)).isEmpty();
    }

    @Test
    void aRunShowsTheOrderingKeyItWasCreatedWithWhileItWaitsAndAfterItEnds() {
        RunInfo created = create(waiting("order-1", "customer-7", 0, now()));
        create(waiting("order-2", null, 0, now()));

        assertThat(created.key()).isEqualTo("customer-7");
        assertThat(info("order-1").key()).isEqualTo("customer-7");
        assertThat(info("order-2").key()).isNull();
        assertThat(queries().list(RunQuery.all().withWorkflow(WORKFLOW)).runs())
                .extracting(RunInfo::runId, RunInfo::key)
                .containsExactlyInAnyOrder(tuple("order-1", "customer-7"), tuple("order-2", null));

        tasks().move(List.of("order-1"), WAIT, PAY, now());
        finish("order-1");

        assertThat(info("order-1").status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(info("order-1").key()).as("kept once the run has no turn").isEqualTo("customer-7");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void aWaitingRunIsNeverLeasedAsItIsCreated(AccessPath path) {
        CreateResult created = path.of(world).createLeased(waiting("order-1", null, 0, now()), "worker-a", LEASE);

        assertThat(created.created()).isTrue();
        assertThat(created.lease()).isNull();
        assertThat(leasePayments()).isEmpty();
        assertThat(tasks().waiting(WAIT, 10)).extracting(WaitingTurn::runId).containsExactly("order-1");
    }

    @Test
    void waitingListsTurnsInLeasingOrderWhateverTheirDueTime() {
        Instant t = now();
        create(waiting("low-first", "a", 0, t));
        create(waiting("high-later", "b", 5, t.plusSeconds(2)));
        create(waiting("low-second", null, 0, t.plusSeconds(1)));
        create(waiting("delayed", "a", 0, t.plus(Duration.ofHours(1))));
        create(waiting("high-first", "b", 5, t.plusSeconds(1)));

        assertThat(tasks().waiting(WAIT, 10))
                .extracting(WaitingTurn::runId)
                .containsExactly("high-first", "high-later", "low-first", "low-second", "delayed");
        assertThat(tasks().waiting(WAIT, 2)).extracting(WaitingTurn::runId).containsExactly("high-first", "high-later");
        assertThat(tasks().waiting(WAIT, 10)).extracting(WaitingTurn::key).containsExactly("b", "b", "a", null, "a");
        assertThatThrownBy(() -> tasks().waiting(WAIT, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    @Test
    void aTurnAskedForAWaitingRunKeepsItWaiting() {
        create(waiting("order-1", "k", 0, now().plusSeconds(30)));

        tasks().enqueue("order-1", now());

        assertThat(leasePayments()).isEmpty();
        assertThat(tasks().waiting(WAIT, 10))
                .as("asked for now, it waits for admission still, due earlier")
                .containsExactly(new WaitingTurn("order-1", "k", 0, now()));
    }

    @Test
    void moveMakesWaitingTurnsLeasableFromTheRunsQueueOnce() {
        create(waiting("order-1", "k", 0, now()));
        create(waiting("order-2", "k", 0, now()));
        create(waiting("order-3", "k", 0, now()));
        create(newRun("plain", PAY, 0, now()));
        clock.advance(Duration.ofSeconds(5));

        Set<String> moved = tasks().move(List.of("order-1", "order-2", "plain", "missing"), WAIT, PAY, now());

        assertThat(moved).containsExactlyInAnyOrder("order-1", "order-2");
        assertThat(tasks().waiting(WAIT, 10)).extracting(WaitingTurn::runId).containsExactly("order-3");
        List<Lease> leases = leasePayments();
        assertThat(leases).extracting(Lease::runId).containsExactlyInAnyOrder("order-1", "order-2", "plain");
        assertThat(leases).extracting(Lease::queue).containsOnly(PAY);
        assertThat(tasks().move(List.of("order-1", "order-2"), WAIT, PAY, now()))
                .as("moved already, and leased")
                .isEmpty();
        assertThat(tasks().move(List.of(), WAIT, PAY, now())).isEmpty();
    }

    @Test
    void aMovedTurnIsDueAtTheGivenTime() {
        create(waiting("order-1", null, 0, now()));
        Instant later = now().plus(Duration.ofMinutes(1));

        assertThat(tasks().move(List.of("order-1"), WAIT, PAY, later)).containsExactly("order-1");

        assertThat(leasePayments()).isEmpty();
        clock.set(later);
        assertThat(leasePayments()).extracting(Lease::runId).containsExactly("order-1");
    }

    // ---- admitted runs leased to the admitting worker ----

    /** Whether this path leases the turns it moves ({@link WorldConformanceKit#leasesAtCreation}). */
    private boolean leasesMoves(AccessPath path) {
        return path == AccessPath.WORLD && kit().leasesAtCreation();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void moveLeasingLeasesTheNamedMovedTurnsToTheMovingWorkerAlone(AccessPath path) {
        create(waiting("order-1", "k", 0, now()));
        create(waiting("order-2", "k", 0, now()));
        create(waiting("order-3", "k", 0, now()));
        create(newRun("plain", PAY, 0, now()));
        clock.advance(Duration.ofSeconds(5));

        LeasedRuns out = path.of(world)
                .moveLeasing(
                        List.of("order-1", "order-2", "plain", "missing"),
                        WAIT,
                        PAY,
                        now(),
                        Set.of("order-1", "plain", "missing"),
                        "worker-a",
                        LEASE);

        assertThat(tasks().waiting(WAIT, 10)).extracting(WaitingTurn::runId).containsExactly("order-3");
        assertThat(path.of(world).leasesMoves())
                .as("the path says whether its moves lease, as they do")
                .isEqualTo(leasesMoves(path));
        if (!leasesMoves(path)) {
            assertThat(out.leases())
                    .as("a path that does not lease moves leases nothing")
                    .isEmpty();
            assertThat(out.runs()).isEmpty();
            assertThat(leasePayments())
                    .extracting(Lease::runId)
                    .containsExactlyInAnyOrder("order-1", "order-2", "plain");
            return;
        }
        assertThat(out.leases())
                .as("only the named turn that was moved is leased: not one of its own queue, not a missing run")
                .singleElement()
                .satisfies(l -> {
                    assertThat(l.runId()).isEqualTo("order-1");
                    assertThat(l.queue()).isEqualTo(PAY);
                    assertThat(l.token()).isNotBlank();
                    assertThat(l.expiresAt()).isEqualTo(now().plus(LEASE));
                    assertThat(l.deliveries()).isEqualTo(1);
                });
        Lease lease = out.leases().getFirst();
        List<Lease> others = leasePayments();
        assertThat(others)
                .as("the leased turn is nobody else's; the others moved are anyone's")
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("order-2", "plain");
        others.forEach(l -> tasks().complete(l, null));
        assertThat(path.of(world)
                        .moveLeasing(List.of("order-1"), WAIT, PAY, now(), Set.of("order-1"), "w", LEASE)
                        .leases())
                .as("moved already, and leased")
                .isEmpty();
        clock.advance(LEASE.dividedBy(2));
        Lease extended = tasks().extend(lease, LEASE).orElseThrow();
        clock.set(extended.expiresAt().plus(MS));
        Lease again = leasePayments().getFirst();
        assertThat(again.runId()).as("delivered again when its lease lapses").isEqualTo("order-1");
        assertThat(again.deliveries()).isEqualTo(2);
        assertThat(tasks().extend(lease, LEASE)).as("the lapsed lease is stale").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void moveLeasingToALaterTimeLeasesNothingAndTheTurnIsDueThen(AccessPath path) {
        create(waiting("order-1", null, 0, now()));
        Instant later = now().plus(Duration.ofMinutes(1));

        LeasedRuns out =
                path.of(world).moveLeasing(List.of("order-1"), WAIT, PAY, later, Set.of("order-1"), "worker-a", LEASE);

        assertThat(out.leases()).isEmpty();
        assertThat(tasks().waiting(WAIT, 10)).isEmpty();
        assertThat(leasePayments()).isEmpty();
        clock.set(later);
        assertThat(leasePayments()).extracting(Lease::runId).containsExactly("order-1");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void moveLeasingForNoTimeOrLessIsRefusedAndMovesNothing(AccessPath path) {
        create(waiting("order-1", null, 0, now()));
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            assertThatThrownBy(() -> path.of(world)
                            .moveLeasing(List.of("order-1"), WAIT, PAY, now(), Set.of("order-1"), "worker-a", bad))
                    .as("moveLeasing for %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaseFor");
        }
        assertThat(tasks().waiting(WAIT, 10)).extracting(WaitingTurn::runId).containsExactly("order-1");
        assertThat(leasePayments()).isEmpty();
    }

    @Test
    void waitingRunsAreKeptAcrossAReopen() {
        create(waiting("order-1", "k", 3, now()));

        reopen();

        assertThat(tasks().waiting(WAIT, 10)).containsExactly(new WaitingTurn("order-1", "k", 3, now()));
        assertThat(leasePayments()).isEmpty();
    }
}
