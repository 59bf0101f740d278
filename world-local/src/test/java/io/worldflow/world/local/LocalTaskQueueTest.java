package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.Lease;
import io.worldflow.spi.TaskQueue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LocalTaskQueueTest extends LocalWorldTestSupport {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private TaskQueue queue() {
        return world.taskQueue();
    }

    private List<Lease> lease(int max) {
        return queue().lease("w1", Set.of(QUEUE), max, LEASE);
    }

    private Lease leaseOne() {
        List<Lease> leases = lease(1);
        assertThat(leases).hasSize(1);
        return leases.getFirst();
    }

    @Test
    void leaseTakesHighestPriorityThenEarliestDue() {
        world.eventLog().create(newRun("low-early", "wf", now().minusSeconds(20), QUEUE, 0));
        world.eventLog().create(newRun("high-late", "wf", now().minusSeconds(1), QUEUE, 5));
        world.eventLog().create(newRun("high-early", "wf", now().minusSeconds(10), QUEUE, 5));
        world.eventLog().create(newRun("low-late", "wf", now(), QUEUE, 0));

        assertThat(lease(3)).extracting(Lease::runId).containsExactly("high-early", "high-late", "low-early");
        assertThat(lease(3)).extracting(Lease::runId).containsExactly("low-late");
        assertThat(lease(3)).isEmpty();
    }

    @Test
    void leaseSkipsLevelsWhoseTurnsAreNotDueAndMixesInLapsedLeases() {
        world.eventLog().create(newRun("top-future", "wf", now().plusSeconds(60), QUEUE, 9));
        world.eventLog().create(newRun("mid-due", "wf", now().minusSeconds(1), QUEUE, 5));
        world.eventLog().create(newRun("mid-future", "wf", now().plusSeconds(1), QUEUE, 5));
        world.eventLog().create(newRun("low-due", "wf", now().minusSeconds(30), QUEUE, -3));
        world.eventLog().create(newRun("zero-due", "wf", now().minusSeconds(60), QUEUE, 0));
        assertThat(queue().lease("other", Set.of(QUEUE), 1, Duration.ofSeconds(1)))
                .extracting(Lease::runId)
                .containsExactly("mid-due");
        clock.advance(Duration.ofSeconds(2)); // mid-future is due, and the lease on mid-due lapsed

        assertThat(lease(10)).extracting(Lease::runId).containsExactly("mid-due", "mid-future", "zero-due", "low-due");
        assertThat(lease(10)).isEmpty();
    }

    @Test
    void leaseReadsUnleasedTurnsInLeasingOrderFromAnIndexWithoutSortingThem() throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dbFile());
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("EXPLAIN QUERY PLAN SELECT run_id, priority, available_at"
                        + " FROM tasks INDEXED BY tasks_fresh WHERE queue = 'default' AND lease_expires IS NULL"
                        + " AND priority = 0 AND available_at <= 1 ORDER BY available_at, run_id LIMIT 64")) {
            StringBuilder plan = new StringBuilder();
            while (rs.next()) {
                plan.append(rs.getString(4)).append('\n');
            }
            assertThat(plan.toString()).contains("tasks_fresh").doesNotContain("TEMP B-TREE");
        }
    }

    @Test
    void leaseFillsTheLeaseFromTheClock() {
        create("r1");

        Lease lease = queue().lease("w1", Set.of(QUEUE, "other"), 10, LEASE).getFirst();

        assertThat(lease.runId()).isEqualTo("r1");
        assertThat(lease.queue()).isEqualTo(QUEUE);
        assertThat(lease.expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(lease.deliveries()).isEqualTo(1);
        assertThat(lease.token()).isNotBlank();
    }

    @Test
    void leaseSkipsTurnsNotYetDueAndOtherQueues() {
        world.eventLog().create(newRun("later", "wf", now().plusSeconds(60), QUEUE, 0));
        world.eventLog().create(newRun("elsewhere", "wf", now(), "other", 0));

        assertThat(lease(10)).isEmpty();
        clock.advance(Duration.ofSeconds(60));
        assertThat(lease(10)).extracting(Lease::runId).containsExactly("later");
        assertThat(queue().lease("w2", Set.of("other"), 10, LEASE))
                .extracting(Lease::runId)
                .containsExactly("elsewhere");
    }

    @Test
    void aLeasedTurnIsNotLeasedAgainUntilItsLeaseExpires() {
        create("r1");
        Lease first = leaseOne();

        clock.advance(LEASE.minusSeconds(1));
        assertThat(lease(10)).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        Lease second = leaseOne();

        assertThat(second.deliveries()).isEqualTo(2);
        assertThat(second.token()).isNotEqualTo(first.token());
        assertThat(queue().extend(first, LEASE)).isEmpty();
        queue().complete(first, null);
        queue().release(first);
        assertThat(queue().extend(second, LEASE)).isPresent();
    }

    @Test
    void extendMovesTheExpiry() {
        create("r1");
        Lease lease = leaseOne();
        clock.advance(Duration.ofSeconds(20));

        Lease extended = queue().extend(lease, LEASE).orElseThrow();

        assertThat(extended.expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(extended.token()).isEqualTo(lease.token());
        clock.advance(Duration.ofSeconds(20));
        assertThat(lease(10)).isEmpty();
    }

    @Test
    void completeWithAWakeTimeMakesTheNextTurnDueThen() {
        create("r1");
        Lease lease = leaseOne();
        Instant wake = now().plus(Duration.ofHours(1));

        queue().complete(lease, wake);

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(wake);
        assertThat(lease(10)).isEmpty();
        clock.set(wake);
        assertThat(leaseOne().deliveries()).isEqualTo(1);
    }

    @Test
    void completeWithoutAWakeTimeEndsTheTurns() {
        create("r1");

        queue().complete(leaseOne(), null);

        assertThat(queue().nextDue(Set.of(QUEUE))).isEmpty();
    }

    @Test
    void aTurnRequestedWhileLeasedIsDueWhenTheTurnEnds() {
        create("r1");
        Lease lease = leaseOne();
        clock.advance(Duration.ofSeconds(1));
        queue().enqueue("r1", now());
        assertThat(lease(10)).isEmpty();

        queue().complete(lease, now().plusSeconds(3600));

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now());
        assertThat(leaseOne().runId()).isEqualTo("r1");
    }

    @Test
    void aLaterTurnRequestedWhileLeasedIsKeptWhenTheTurnEndsWithoutWake() {
        create("r1");
        Lease lease = leaseOne();
        queue().enqueue("r1", now().plusSeconds(60));

        queue().complete(lease, null);

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now().plusSeconds(60));
    }

    @Test
    void enqueueKeepsTheEarlierDueTime() {
        world.eventLog().create(newRun("r1", "wf", now().plusSeconds(100), QUEUE, 0));

        queue().enqueue("r1", now().plusSeconds(200));
        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now().plusSeconds(100));
        queue().enqueue("r1", now().plusSeconds(50));
        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now().plusSeconds(50));
    }

    @Test
    void enqueueRecreatesTheTurnOfAWaitingRun() {
        create("r1");
        queue().complete(leaseOne(), null);

        queue().enqueue("r1", now().plusSeconds(5));

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now().plusSeconds(5));
    }

    @Test
    void enqueueOfAnUnknownOrFinishedRunDoesNothing() {
        queue().enqueue("ghost", now());
        create("r1");
        world.eventLog()
                .append(List.of(new Append(
                        "r1", 1, List.of(new WorkflowCompleted("r1", 1, now(), Payload.NULL)), RunStatus.COMPLETED)));

        queue().enqueue("r1", now());

        assertThat(queue().nextDue(Set.of(QUEUE))).isEmpty();
    }

    @Test
    void enqueueAfterALeaseExpiredIsNotLostWhenTheOldHolderCompletes() {
        create("r1");
        Lease lease = leaseOne();
        clock.advance(LEASE.plusSeconds(1));
        queue().enqueue("r1", now());

        queue().complete(lease, null);

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now());
    }

    @Test
    void releaseMakesTheTurnDueAtOnce() {
        world.eventLog().create(newRun("r1", "wf", now().minusSeconds(100), QUEUE, 0));
        Lease lease = leaseOne();
        clock.advance(Duration.ofSeconds(3));

        queue().release(lease);

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(now());
        Lease again = leaseOne();
        assertThat(again.deliveries()).isEqualTo(2);
        queue().release(lease);
        assertThat(lease(10)).isEmpty();
    }

    @Test
    void nextDueCoversLeasedTurnsAtTheirExpiry() {
        create("r1");
        Lease lease = leaseOne();
        world.eventLog().create(newRun("r2", "wf", now().plusSeconds(3600), QUEUE, 0));

        assertThat(queue().nextDue(Set.of(QUEUE))).contains(lease.expiresAt());
        assertThat(queue().nextDue(Set.of("other"))).isEmpty();
        assertThat(queue().nextDue(Set.of())).isEmpty();
    }

    @Test
    void subscribersHearWhenTurnsBecomeDue() throws InterruptedException {
        BlockingQueue<Instant> heard = new LinkedBlockingQueue<>();
        queue().subscribe(heard::add);
        Instant start = now();

        world.eventLog().create(newRun("r1", "wf", start.plusSeconds(10), QUEUE, 0));
        assertThat(next(heard)).isEqualTo(start.plusSeconds(10));
        clock.advance(Duration.ofSeconds(10));
        queue().complete(leaseOne(), now().plusSeconds(60));
        assertThat(next(heard)).isEqualTo(now().plusSeconds(60));
        world.signals().send("r1", "go", Payload.NULL);
        assertThat(next(heard)).isEqualTo(now());
        clock.advance(Duration.ofSeconds(1));
        world.eventLog().requestCancel("r1", "stop");
        assertThat(next(heard)).as("still due since the signal").isEqualTo(now().minusSeconds(1));
        queue().release(leaseOne());
        assertThat(next(heard)).isEqualTo(now());
    }

    @Test
    void aClosedSubscriptionHearsNothingMore() throws InterruptedException {
        BlockingQueue<Instant> closed = new LinkedBlockingQueue<>();
        BlockingQueue<Instant> probe = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = queue().subscribe(closed::add);
        queue().subscribe(probe::add);
        subscription.close();
        subscription.close();

        create("r1");

        assertThat(next(probe)).isEqualTo(now());
        assertThat(closed).isEmpty();
    }

    @Test
    void requestsDuringALeaseAreAnnouncedWhenTheLeaseEnds() throws InterruptedException {
        create("r1");
        Lease lease = leaseOne();
        BlockingQueue<Instant> heard = new LinkedBlockingQueue<>();
        queue().subscribe(heard::add);
        Instant requested = now();

        world.signals().send("r1", "go", Payload.NULL);
        world.eventLog().create(newRun("marker", "wf", now().plusSeconds(999), QUEUE, 0));
        assertThat(next(heard)).as("a request during a lease is not due yet").isEqualTo(now().plusSeconds(999));
        clock.advance(Duration.ofSeconds(1));
        queue().complete(lease, null);

        assertThat(next(heard)).isEqualTo(requested);
    }

    @Test
    void aFailingSubscriberDoesNotBreakTheWriteOrTheOthers() throws InterruptedException {
        BlockingQueue<Instant> heard = new LinkedBlockingQueue<>();
        queue().subscribe(at -> {
            throw new IllegalStateException("listener bug");
        });
        queue().subscribe(heard::add);

        assertThat(create("r1").created()).isTrue();
        assertThat(next(heard)).isEqualTo(now());
    }

    @Test
    void listenersRunOffTheWritingThread() throws InterruptedException {
        BlockingQueue<Thread> threads = new LinkedBlockingQueue<>();
        queue().subscribe(at -> threads.add(Thread.currentThread()));

        create("r1");

        assertThat(threads.poll(5, TimeUnit.SECONDS)).isNotNull().isNotSameAs(Thread.currentThread());
    }

    private static Instant next(BlockingQueue<Instant> heard) throws InterruptedException {
        Instant at = heard.poll(5, TimeUnit.SECONDS);
        assertThat(at).as("told within 5s").isNotNull();
        return at;
    }
}
