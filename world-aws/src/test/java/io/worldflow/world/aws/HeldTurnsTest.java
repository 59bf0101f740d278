package io.worldflow.world.aws;

import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.OutgoingCancel;
import io.worldflow.spi.TurnEnd;
import io.worldflow.spi.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker writes the appends and heartbeats of a turn it holds from what it last wrote, without reading the run first.
 * Whatever another process changed meanwhile, those writes are refused and made again from a fresh read, so they never
 * write over a change or report less than a write from a fresh read would.
 */
class HeldTurnsTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private final AwsWorlds worlds = new AwsWorlds();
    /** The process holding the run's turn. */
    private final World holder = worlds.open();
    /** Another process. */
    private final World other = worlds.open();

    @AfterEach
    void close() {
        worlds.close();
    }

    private NewRun run(String id) {
        return new NewRun(
                id,
                "held.v1",
                worlds.codec.encode("x", "input"),
                worlds.clock.instant(),
                worlds.clock.instant(),
                null,
                "default",
                0);
    }

    /** The run created with its first turn leased to the holder. */
    private Lease held(String id) {
        Lease lease =
                holder.workerAccess().createLeased(run(id), "holder", LEASE).lease();
        assertThat(lease).as("leased as created").isNotNull();
        return lease;
    }

    private Append step(String runId, long seq, String stepId) {
        return new Append(
                runId,
                seq,
                List.of(new StepScheduled(runId, seq, worlds.clock.instant(), stepId, stepId)),
                RunStatus.RUNNING);
    }

    private static AppendResult append(World world, Append a) {
        return world.eventLog().append(List.of(a)).getFirst();
    }

    @Test
    void anAppendOfAHeldTurnWhoseLogMovedElsewhereIsAConflict() {
        held("order-1");
        assertThat(append(other, step("order-1", 1, "theirs")).appended()).isTrue();

        AppendResult mine = append(holder, step("order-1", 1, "mine"));

        assertThat(mine.appended()).isFalse();
        assertThat(mine.logLength()).isEqualTo(2);
        assertThat(holder.eventLog().read("order-1", 1))
                .extracting(e -> ((StepScheduled) e).stepId())
                .containsExactly("theirs");
    }

    @Test
    void aCancellationRequestedElsewhereIsReportedByTheNextAppendOfTheHeldTurn() {
        held("order-1");
        other.eventLog().requestCancel("order-1", "stop");

        AppendResult next = append(holder, step("order-1", 1, "a"));

        assertThat(next.appended()).isTrue();
        assertThat(next.cancelRequested()).isTrue();
    }

    @Test
    void aCancellationThatLeavesTheTurnAsItWasIsStillReportedByTheNextAppend() {
        held("order-1");
        // a signal asks for a turn while the lease holds: the held turn moved, and the next append reads it
        other.signals().send("order-1", "s", worlds.codec.encode("v", "payload"));
        assertThat(append(holder, step("order-1", 1, "a")).cancelRequested()).isFalse();
        // a cancellation from another run's append, to a run whose turn is already asked for, leaves the turn alone
        other.eventLog().create(run("canceler"));
        assertThat(append(
                                other,
                                new Append("canceler", 1, List.of(), RunStatus.RUNNING)
                                        .withEffects(
                                                List.of(),
                                                List.of(),
                                                List.of(new OutgoingCancel("order-1", "stop")),
                                                null))
                        .appended())
                .isTrue();

        AppendResult next = append(holder, step("order-1", 2, "b"));

        assertThat(next.appended()).isTrue();
        assertThat(next.cancelRequested()).isTrue();
    }

    @Test
    void aSignalSentElsewhereWhileTheTurnIsHeldMakesTheRunDueWhenTheTurnEnds() {
        Lease lease = held("order-1");
        other.signals().send("order-1", "s", worlds.codec.encode("v", "payload"));

        Append end = new Append(
                "order-1",
                1,
                List.of(new StepScheduled("order-1", 1, worlds.clock.instant(), "a", "a")),
                RunStatus.WAITING,
                List.of(),
                new TurnEnd(lease, null));
        assertThat(append(holder, end).appended()).isTrue();

        assertThat(other.taskQueue().lease("w", Set.of("default"), 10, LEASE))
                .extracting(Lease::runId)
                .containsExactly("order-1");
    }

    @Test
    void aHeartbeatOfAHeldTurnThatMovedElsewhereStillExtendsItAndTheNextAppendGoesThrough() {
        Lease lease = held("order-1");
        other.signals().send("order-1", "s", worlds.codec.encode("v", "payload"));
        worlds.clock.advance(Duration.ofSeconds(10));

        assertThat(holder.taskQueue().extend(lease, LEASE)).isPresent();
        assertThat(append(holder, step("order-1", 1, "a")).appended()).isTrue();
        worlds.clock.advance(Duration.ofSeconds(25));
        assertThat(other.taskQueue().lease("w", Set.of("default"), 10, LEASE))
                .as("past the first lease's end, the lease runs 30 s from the heartbeat")
                .isEmpty();
        assertThat(holder.taskQueue().extend(lease, LEASE)).isPresent();
    }

    @Test
    void aLeaseThatLapsedAndWasTakenElsewhereIsNoLongerExtendedNorEndedByItsFormerHolder() {
        Lease lease = held("order-1");
        worlds.clock.advance(LEASE.plusSeconds(1));
        Lease taken = other.taskQueue().lease("w", Set.of("default"), 10, LEASE).getFirst();

        assertThat(holder.taskQueue().extend(lease, LEASE)).isEmpty();
        Append late = new Append(
                "order-1",
                1,
                List.of(new StepScheduled("order-1", 1, worlds.clock.instant(), "a", "a")),
                RunStatus.SLEEPING,
                List.of(),
                new TurnEnd(lease, null));
        AppendResult result = append(holder, late);

        assertThat(result.appended()).as("fenced by the log's length alone").isTrue();
        assertThat(other.taskQueue().extend(taken, LEASE))
                .as("the former holder's turn end leaves the new lease alone")
                .isPresent();
        List<Event> log = other.eventLog().read("order-1", 0);
        assertThat(log).hasSize(2);
    }

    @Test
    void twoLeasesOfOneRunInOneProcessNeverWriteFromEachOthersState() {
        World one = worlds.open();
        one.eventLog().create(run("order-1"));
        Lease first = one.taskQueue().lease("w1", Set.of("default"), 1, LEASE).getFirst();
        worlds.clock.advance(LEASE.plusSeconds(1));
        Lease second = one.taskQueue().lease("w2", Set.of("default"), 1, LEASE).getFirst();
        assertThat(second.token()).isNotEqualTo(first.token());

        assertThat(one.taskQueue().extend(first, LEASE)).isEmpty();
        assertThat(append(one, step("order-1", 1, "w2")).appended()).isTrue();
        assertThat(append(one, step("order-1", 1, "w1")).isConflict()).isTrue();
        assertThat(one.taskQueue().extend(second, LEASE)).isPresent();
    }
}
