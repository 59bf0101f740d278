package io.worldflow.world.local;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunFinishedException;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TurnEnd;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalEventLogTest extends LocalWorldTestSupport {

    private RunInfo run(String runId) {
        return world.runQueries().get(runId).orElseThrow();
    }

    private Lease leaseOne() {
        List<Lease> leases = world.taskQueue().lease("w1", Set.of(QUEUE), 1, Duration.ofSeconds(30));
        assertThat(leases).hasSize(1);
        return leases.getFirst();
    }

    @Test
    void createWritesTheStartedEventAPendingRunAndItsFirstTurn() {
        Instant deadline = now().plus(Duration.ofHours(1));
        NewRun newRun = new NewRun(
                "r1",
                "order.v1",
                new Payload("{\"id\":7}", "com.acme.Order"),
                now(),
                now().plusSeconds(5),
                deadline,
                "orders",
                3);

        CreateResult result = world.eventLog().create(newRun);

        assertThat(result.created()).isTrue();
        assertThat(result.run())
                .isEqualTo(new RunInfo(
                        "r1",
                        "order.v1",
                        RunStatus.PENDING,
                        new Payload("{\"id\":7}", "com.acme.Order"),
                        null,
                        null,
                        now(),
                        now(),
                        now().plusSeconds(5),
                        deadline,
                        "orders",
                        3,
                        1,
                        null,
                        null,
                        null));
        assertThat(world.runQueries().get("r1")).contains(result.run());
        assertThat(world.eventLog().read("r1", 0)).containsExactly(newRun.startedEvent());
        assertThat(world.taskQueue().nextDue(Set.of("orders"))).contains(now().plusSeconds(5));
    }

    @Test
    void createIsIdempotentById() {
        RunInfo first = create("r1").run();
        clock.advance(Duration.ofSeconds(1));

        CreateResult again = world.eventLog().create(newRun("r1", "other", now(), "elsewhere", 9));

        assertThat(again.created()).isFalse();
        assertThat(again.run()).isEqualTo(first);
        assertThat(world.eventLog().read("r1", 0)).hasSize(1);
        assertThat(world.taskQueue().nextDue(Set.of("elsewhere"))).isEmpty();
    }

    @Test
    void appendWritesEventsAndUpdatesTheProjection() {
        create("r1");
        clock.advance(Duration.ofSeconds(2));
        Append append = markerAppend("r1", 1, 3, RunStatus.RUNNING);

        AppendResult result = appendOne(append);

        assertThat(result).isEqualTo(new AppendResult(true, 4, false));
        assertThat(world.eventLog().read("r1", 0))
                .hasSize(4)
                .endsWith(append.events().toArray(Event[]::new));
        RunInfo info = run("r1");
        assertThat(info.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(info.logLength()).isEqualTo(4);
        assertThat(info.updatedAt()).isEqualTo(now());
    }

    @Test
    void appendRejectsStaleSequence() {
        create("r1");
        appendOne(markerAppend("r1", 1, 2, RunStatus.RUNNING));

        AppendResult stale = appendOne(markerAppend("r1", 1, 1, RunStatus.SLEEPING));

        assertThat(stale.appended()).isFalse();
        assertThat(stale.isConflict()).isTrue();
        assertThat(stale.logLength()).isEqualTo(3);
        assertThat(world.eventLog().read("r1", 0)).hasSize(3);
        assertThat(run("r1").status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void anAppendWithoutEventsChangesTheStatusAlone() {
        create("r1");
        world.eventLog().hold("r1", ErrorInfo.of("x.Held", "held"));
        clock.advance(Duration.ofSeconds(3));

        AppendResult result = appendOne(new Append("r1", 1, List.of(), RunStatus.WAITING));

        assertThat(result).isEqualTo(new AppendResult(true, 1, false));
        RunInfo info = run("r1");
        assertThat(info.status()).isEqualTo(RunStatus.WAITING);
        assertThat(info.logLength()).isEqualTo(1);
        assertThat(info.updatedAt()).isEqualTo(now());
        assertThat(info.held()).isNull();
        assertThat(world.eventLog().read("r1", 0)).hasSize(1);
        assertThat(appendOne(new Append("r1", 0, List.of(), RunStatus.RUNNING)))
                .isEqualTo(new AppendResult(false, 1, false));
    }

    @Test
    void appendToAnUnknownRunIsMissing() {
        assertThat(appendOne(markerAppend("ghost", 1, 1, RunStatus.RUNNING))).isEqualTo(AppendResult.missing());
    }

    @Test
    void completionStoresTheOutputAndRemovesTheRunsTurn() {
        create("r1");
        Lease lease = leaseOne();
        Payload output = new Payload("{\"ok\":true}", "com.acme.Receipt");
        Append done = new Append(
                "r1",
                1,
                List.of(new WorkflowCompleted("r1", 1, now(), output)),
                RunStatus.COMPLETED,
                List.of(),
                new TurnEnd(lease, now().plusSeconds(60)));

        assertThat(appendOne(done).appended()).isTrue();

        RunInfo info = run("r1");
        assertThat(info.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(info.output()).isEqualTo(output);
        assertThat(info.error()).isNull();
        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).isEmpty();
        world.taskQueue().enqueue("r1", now());
        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).isEmpty();
    }

    @Test
    void failureStoresTheError() {
        create("r1");
        ErrorInfo error = ErrorInfo.of("java.lang.IllegalStateException", "boom");

        appendOne(new Append("r1", 1, List.of(new WorkflowFailed("r1", 1, now(), error)), RunStatus.FAILED));

        assertThat(run("r1").error()).isEqualTo(error);
        assertThat(run("r1").output()).isNull();
    }

    @Test
    void appendAfterTheRunFinishedIsRefused() {
        create("r1");
        appendOne(
                new Append("r1", 1, List.of(new WorkflowCompleted("r1", 1, now(), Payload.NULL)), RunStatus.COMPLETED));

        AppendResult late = appendOne(markerAppend("r1", 2, 1, RunStatus.RUNNING));

        assertThat(late.appended()).isFalse();
        assertThat(late.logLength()).isEqualTo(2);
        assertThat(run("r1").status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void appendConsumesOnlyTheRunsOwnSignals() {
        create("r1");
        create("r2");
        long mine = world.signals().send("r1", "go", new Payload("1", "java.lang.Integer"));
        long theirs = world.signals().send("r2", "go", new Payload("2", "java.lang.Integer"));
        Append consume = new Append(
                "r1",
                1,
                List.of(new SignalReceived(
                        "r1", 1, now(), "wait-1", "go", new Payload("1", "java.lang.Integer"), now())),
                RunStatus.RUNNING,
                List.of(mine, theirs),
                null);

        assertThat(appendOne(consume).appended()).isTrue();

        assertThat(world.signals().pending("r1")).isEmpty();
        assertThat(world.signals().pending("r2")).extracting(s -> s.id()).containsExactly(theirs);
    }

    @Test
    void turnEndCompletesTheLeaseInTheSameTransaction() {
        create("r1");
        Lease lease = leaseOne();
        Instant wake = now().plus(Duration.ofMinutes(10));

        appendOne(markerAppend("r1", 1, RunStatus.SLEEPING, new TurnEnd(lease, wake)));

        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(wake);
        assertThat(world.taskQueue().extend(lease, Duration.ofSeconds(30))).isEmpty();
    }

    @Test
    void turnEndOfAStaleLeaseAppendsButLeavesTheTurnAlone() {
        create("r1");
        Lease old = leaseOne();
        clock.advance(Duration.ofSeconds(31));
        Lease current = leaseOne();

        AppendResult result = appendOne(markerAppend("r1", 1, RunStatus.WAITING, new TurnEnd(old, null)));

        assertThat(result.appended()).isTrue();
        assertThat(world.taskQueue().extend(current, Duration.ofSeconds(30))).isPresent();
    }

    @Test
    void appendReportsARequestedCancellation() {
        create("r1");
        world.eventLog().requestCancel("r1", "user asked");

        assertThat(appendOne(markerAppend("r1", 1, 1, RunStatus.RUNNING))).isEqualTo(new AppendResult(true, 2, true));
        assertThat(appendOne(markerAppend("r1", 1, 1, RunStatus.RUNNING))).isEqualTo(new AppendResult(false, 2, true));
    }

    @Test
    void readStartsAtTheGivenSequence() {
        create("r1");
        appendOne(markerAppend("r1", 1, 4, RunStatus.RUNNING));

        assertThat(world.eventLog().read("r1", 3)).extracting(Event::seq).containsExactly(3L, 4L);
        assertThat(world.eventLog().read("r1", 5)).isEmpty();
        assertThat(world.eventLog().read("r1", 0).getFirst()).isInstanceOf(WorkflowStarted.class);
    }

    @Test
    void readOfAnUnknownRunFails() {
        assertThatThrownBy(() -> world.eventLog().read("ghost", 0))
                .isInstanceOf(RunNotFoundException.class)
                .hasMessageContaining("ghost");
    }

    @Test
    void requestCancelMarksTheRunAndMakesItDueNow() {
        world.eventLog().create(newRun("r1", "wf", now().plusSeconds(3600), QUEUE, 0));
        clock.advance(Duration.ofSeconds(5));

        world.eventLog().requestCancel("r1", "first");
        world.eventLog().requestCancel("r1", "second");

        RunInfo info = run("r1");
        assertThat(info.cancelRequested()).isTrue();
        assertThat(info.updatedAt()).isEqualTo(now());
        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(now());
    }

    @Test
    void requestCancelOfUnknownOrFinishedRunFails() {
        assertThatThrownBy(() -> world.eventLog().requestCancel("ghost", "x")).isInstanceOf(RunNotFoundException.class);
        create("r1");
        appendOne(
                new Append("r1", 1, List.of(new WorkflowCompleted("r1", 1, now(), Payload.NULL)), RunStatus.COMPLETED));

        assertThatThrownBy(() -> world.eventLog().requestCancel("r1", "x"))
                .isInstanceOfSatisfying(
                        RunFinishedException.class, e -> assertThat(e.status()).isEqualTo(RunStatus.COMPLETED))
                .hasMessageContaining("cancel");
    }

    @Test
    void cancellationCountsAsRequestedOnlyUntilTheRunEnds() {
        create("r1");
        world.eventLog().requestCancel("r1", "stop");

        appendOne(new Append(
                "r1", 1, List.of(new io.worldflow.event.WorkflowCanceled("r1", 1, now())), RunStatus.CANCELED));

        assertThat(run("r1").cancelRequested()).isFalse();
        assertThat(run("r1").status()).isEqualTo(RunStatus.CANCELED);
    }

    @Test
    void holdIsRecordedAndClearedByTheNextAppend() {
        create("r1");
        ErrorInfo reason = ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "step renamed");
        clock.advance(Duration.ofSeconds(1));

        world.eventLog().hold("r1", reason);

        assertThat(run("r1").held()).isEqualTo(reason);
        assertThat(run("r1").isHeld()).isTrue();
        assertThat(run("r1").updatedAt()).isEqualTo(now());
        appendOne(markerAppend("r1", 1, 1, RunStatus.RUNNING));
        assertThat(run("r1").held()).isNull();
    }

    @Test
    void holdOfAnUnknownRunFails() {
        assertThatThrownBy(() -> world.eventLog().hold("ghost", ErrorInfo.of("x", "y")))
                .isInstanceOf(RunNotFoundException.class);
    }
}
