package io.worldflow.tck;

import io.worldflow.RunStatus;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.TurnEnd;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Durable timers: a turn due later. A sleeping run's turn is due at its wake time, exactly then and
 * never before, and survives restarts; {@code nextDue} tells an idle worker how long it may sleep.
 */
public abstract class TimersContract extends WorldContractSupport {

    protected TimersContract(WorldConformanceKit kit) {
        super(kit);
    }

    /** Leases the run, ends its turn with a wake time, and returns that time. */
    private Instant sleep(String runId, Duration d) {
        Instant wakeAt = now().plus(d);
        tasks().complete(leaseRun(runId), wakeAt);
        return wakeAt;
    }

    @Test
    void completeWithWakeAtMakesTheTurnDueAtExactlyThatInstant() {
        create("order-1");
        Instant wakeAt = sleep("order-1", Duration.ofMinutes(10));

        assertNothingDue();
        clock.set(wakeAt.minus(MS));
        assertNothingDue();
        clock.set(wakeAt);
        Lease lease = leaseRun("order-1");
        assertThat(lease.deliveries()).isEqualTo(1);
    }

    @Test
    void aTimerFarAheadIsNotDueUntilItsTime() {
        create("order-1");
        Instant wakeAt = sleep("order-1", Duration.ofDays(400));

        clock.advance(Duration.ofDays(399));
        assertNothingDue();
        clock.set(wakeAt);
        leaseRun("order-1");
    }

    @Test
    void aTimerLongPastIsDue() {
        create("order-1");
        sleep("order-1", Duration.ofSeconds(1));

        clock.advance(Duration.ofDays(10));

        leaseRun("order-1");
    }

    @Test
    void aFiredTimerDoesNotFireAgain() {
        create("order-1");
        Instant wakeAt = sleep("order-1", Duration.ofMinutes(1));
        clock.set(wakeAt);
        Lease lease = leaseRun("order-1");

        AppendResult fired = append(new Append(
                "order-1",
                1,
                List.of(new TimerFired("order-1", 1, now(), "nap")),
                RunStatus.WAITING,
                List.of(),
                new TurnEnd(lease, null)));

        assertThat(fired.appended()).isTrue();
        clock.advance(Duration.ofDays(1));
        assertNothingDue();
    }

    @Test
    void timersFireInDueOrder() {
        Instant start = now();
        create("first");
        tasks().complete(leaseRun("first"), start.plusSeconds(10));
        create("third");
        tasks().complete(leaseRun("third"), start.plusSeconds(30));
        create("second");
        tasks().complete(leaseRun("second"), start.plusSeconds(20));

        clock.set(start.plusSeconds(15));
        assertThat(drainOneByOne(Set.of(QUEUE))).containsExactly("first");
        clock.set(start.plusSeconds(60));
        assertThat(drainOneByOne(Set.of(QUEUE))).containsExactly("second", "third");
    }

    @Test
    void aTimerCanBeSetAgainAfterItFires() {
        create("order-1");
        Instant first = sleep("order-1", Duration.ofMinutes(1));
        clock.set(first);
        Instant second = sleep("order-1", Duration.ofMinutes(5));

        clock.set(second.minus(MS));
        assertNothingDue();
        clock.set(second);
        leaseRun("order-1");
    }

    @Test
    void completeWithAPastWakeAtIsDueAtOnce() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        clock.advance(Duration.ofSeconds(5));

        tasks().complete(lease, now().minusSeconds(3));

        leaseRun("order-1");
    }

    // ---- enqueue against a timer ----

    @Test
    void enqueueKeepsTheEarlierDueTime() {
        create("order-1");
        Instant wakeAt = sleep("order-1", Duration.ofMinutes(10));

        tasks().enqueue("order-1", now().plus(Duration.ofMinutes(20)));

        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(wakeAt);
        clock.set(wakeAt);
        leaseRun("order-1");
    }

    @Test
    void enqueueBringsALaterTurnForward() {
        create("order-1");
        sleep("order-1", Duration.ofMinutes(10));
        Instant sooner = now().plus(Duration.ofMinutes(4));

        tasks().enqueue("order-1", sooner);

        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(sooner);
        clock.set(sooner.minus(MS));
        assertNothingDue();
        clock.set(sooner);
        leaseRun("order-1");
    }

    @Test
    void enqueueNowWakesASleepingRun() {
        create("order-1");
        sleep("order-1", Duration.ofHours(2));

        tasks().enqueue("order-1", now());

        leaseRun("order-1");
    }

    // ---- nextDue ----

    @Test
    void nextDueIsEmptyWhenNothingIsPending() {
        assertThat(tasks().nextDue(Set.of(QUEUE))).isEmpty();
        create("order-1");
        tasks().complete(leaseRun("order-1"), null);
        assertThat(tasks().nextDue(Set.of(QUEUE))).isEmpty();
    }

    @Test
    void nextDueReportsTheEarliestDueInstant() {
        Instant start = now();
        create(newRun("later", QUEUE, 0, start.plus(Duration.ofMinutes(30))));
        create(newRun("sooner", QUEUE, 0, start.plus(Duration.ofMinutes(5))));
        create(newRun("sleeper", QUEUE, 9, start));
        Instant wakeAt = sleep("sleeper", Duration.ofMinutes(15));

        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(start.plus(Duration.ofMinutes(5)));
        clock.set(start.plus(Duration.ofMinutes(5)));
        tasks().complete(leaseRun("sooner"), null);
        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(wakeAt);
    }

    @Test
    void nextDueReportsATurnAlreadyDue() {
        create("order-1");
        Instant createdAt = now();
        clock.advance(Duration.ofMinutes(1));

        assertThat(tasks().nextDue(Set.of(QUEUE)))
                .hasValueSatisfying(at -> assertThat(at).isBeforeOrEqualTo(now()));
        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(createdAt);
    }

    /**
     * A leased turn is not due while its lease holds. A world may leave it out of {@code nextDue} or
     * report the lease's expiry (when it would be delivered again), never an earlier instant: an idle
     * worker must not spin on a turn another worker holds.
     */
    @Test
    void nextDueDoesNotReportALeasedTurnBeforeItsLeaseEnds() {
        create("order-1");
        Lease lease = leaseRun("order-1");

        assertThat(tasks().nextDue(Set.of(QUEUE)))
                .satisfiesAnyOf(
                        due -> assertThat(due).isEmpty(),
                        due -> assertThat(due.orElseThrow()).isAfterOrEqualTo(lease.expiresAt()));
    }

    @Test
    void nextDueLooksOnlyAtTheGivenQueues() {
        Instant start = now();
        create(newRun("a", "alpha", 0, start.plusSeconds(10)));
        create(newRun("b", "beta", 0, start.plusSeconds(20)));

        assertThat(tasks().nextDue(Set.of("beta"))).contains(start.plusSeconds(20));
        assertThat(tasks().nextDue(Set.of("alpha", "beta"))).contains(start.plusSeconds(10));
        assertThat(tasks().nextDue(Set.of("gamma"))).isEmpty();
    }

    // ---- durability ----

    @Test
    void timersSurviveReopen() {
        create("order-1");
        Instant wakeAt = sleep("order-1", Duration.ofMinutes(10));
        create("order-2");
        Instant wakeAt2 = sleep("order-2", Duration.ofMinutes(20));

        reopen();

        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(wakeAt);
        clock.set(wakeAt.minus(MS));
        assertNothingDue();
        clock.set(wakeAt);
        tasks().complete(leaseRun("order-1"), null);
        clock.set(wakeAt2);
        leaseRun("order-2");
    }

    @Test
    void delayedStartSurvivesReopen() {
        Instant availableAt = now().plus(Duration.ofHours(3));
        create(newRun("order-1", QUEUE, 0, availableAt));

        reopen();

        clock.set(availableAt.minus(MS));
        assertNothingDue();
        clock.set(availableAt);
        leaseRun("order-1");
    }

    @Test
    void aTimerRecordedWithItsEventsFiresOnce() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        Instant fireAt = now().plus(Duration.ofMinutes(10));

        append(new Append(
                "order-1",
                1,
                List.of(new TimerScheduled("order-1", 1, now(), "nap", "nap", fireAt)),
                RunStatus.SLEEPING,
                List.of(),
                new TurnEnd(lease, fireAt)));
        reopen();

        clock.set(fireAt);
        Lease woken = leaseRun("order-1");
        AppendResult fired = append(
                new Append("order-1", 2, List.of(new TimerFired("order-1", 2, now(), "nap")), RunStatus.RUNNING));
        AppendResult duplicate = append(
                new Append("order-1", 2, List.of(new TimerFired("order-1", 2, now(), "nap")), RunStatus.RUNNING));
        tasks().complete(woken, null);

        assertThat(fired.appended()).isTrue();
        assertThat(duplicate.isConflict()).as("the log fences a second firing").isTrue();
        assertThat(log().read("order-1", 0))
                .filteredOn(e -> e instanceof TimerFired)
                .hasSize(1);
        assertNothingDue();
    }

    // ---- claiming ahead of the due time ----

    private static final Duration LOOKAHEAD = Duration.ofMillis(50);

    private List<Lease> leaseAhead(String worker) {
        return tasks().lease(worker, Set.of(QUEUE), 10, LEASE, LOOKAHEAD);
    }

    @Test
    void aLookaheadClaimsATurnDueWithinItAndNoneLater() {
        create("soon");
        Instant soon = sleep("soon", Duration.ofMinutes(10));
        create("later");
        sleep("later", Duration.ofMinutes(10).plus(LOOKAHEAD).plus(MS));

        clock.set(soon.minus(LOOKAHEAD).minus(MS));
        assertThat(leaseAhead("w"))
                .as("nothing is due within the lookahead yet")
                .isEmpty();
        clock.set(soon.minus(LOOKAHEAD));
        assertThat(leaseAhead("w")).extracting(Lease::runId).containsExactly("soon");
        assertNothingDue();
        assertThat(leaseAhead("w")).as("'later' is due just past the lookahead").isEmpty();
    }

    @Test
    void aLookaheadNeverTakesALeaseBeforeItLapses() {
        create("order-1");
        Lease held = leaseRun("order-1");

        clock.set(held.expiresAt().minus(MS));
        assertThat(leaseAhead("other")).as("the lease is still current").isEmpty();
        clock.set(held.expiresAt());
        assertThat(leaseAhead("other")).extracting(Lease::runId).containsExactly("order-1");
    }

    @Test
    void aNegativeLookaheadIsRefusedAndClaimsNothing() {
        create("order-1");

        Assertions.assertThatThrownBy(() -> tasks().lease("w", Set.of(QUEUE), 10, LEASE, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lookahead");
        leaseRun("order-1");
    }
}
