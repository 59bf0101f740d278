package io.worldflow.tck;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunFinishedException;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunQuery;
import io.worldflow.RunStateException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.TurnEnd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What an append does besides writing events, in the same transaction: the run's status projection,
 * cancellation requests, holds, consumed signals and the end of the writer's turn.
 */
public abstract class RunProjectionContract extends WorldContractSupport {

    protected RunProjectionContract(WorldConformanceKit kit) {
        super(kit);
    }

    // ---- status, output, error ----

    @Test
    void projectionFollowsAppends() {
        RunInfo created = create("order-1");
        Instant stepAt = now().plusSeconds(1);
        clock.advance(Duration.ofSeconds(5)); // updatedAt is the last event's instant, not the clock's

        AppendResult result = append(
                "order-1",
                RunStatus.SLEEPING,
                new StepScheduled("order-1", 1, stepAt.minusMillis(500), "charge", "charge"),
                new TimerScheduled("order-1", 2, stepAt, "nap", "nap", stepAt.plusSeconds(60)));

        assertThat(result).isEqualTo(new AppendResult(true, 3, false));
        RunInfo info = info("order-1");
        assertThat(info.status()).isEqualTo(RunStatus.SLEEPING);
        assertThat(info.logLength()).isEqualTo(3);
        assertThat(info.updatedAt()).isEqualTo(stepAt);
        assertThat(info.output()).isNull();
        assertThat(info.error()).isNull();
        assertThat(info)
                .usingRecursiveComparison()
                .ignoringFields("status", "logLength", "updatedAt")
                .isEqualTo(created);

        appendStep("order-1", RunStatus.WAITING);
        assertThat(info("order-1").status()).isEqualTo(RunStatus.WAITING);
        assertThat(info("order-1").logLength()).isEqualTo(4);
    }

    @Test
    void workflowCompletedSetsStatusAndOutput() {
        create("order-1");
        markRunning("order-1");
        Payload output = payload(Map.of("receipt", "r-1", "labels", List.of("a", "b")));
        clock.advance(Duration.ofSeconds(3));

        AppendResult result =
                append("order-1", RunStatus.COMPLETED, new WorkflowCompleted("order-1", 2, now(), output));

        assertThat(result.appended()).isTrue();
        RunInfo info = info("order-1");
        assertThat(info.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(info.isTerminal()).isTrue();
        assertThat(info.output()).isEqualTo(output);
        assertThat(info.error()).isNull();
        assertThat(info.updatedAt()).isEqualTo(now());
        assertThat(info.logLength()).isEqualTo(3);
    }

    @Test
    void workflowFailedSetsStatusAndError() {
        create("order-1");
        ErrorInfo error = sampleError();

        append("order-1", RunStatus.FAILED, new WorkflowFailed("order-1", 1, now(), error));

        RunInfo info = info("order-1");
        assertThat(info.status()).isEqualTo(RunStatus.FAILED);
        assertThat(info.error()).isEqualTo(error);
        assertThat(info.error().causeTypes()).containsExactly("java.io.IOException");
        assertThat(info.output()).isNull();
    }

    @Test
    void workflowCanceledSetsStatus() {
        create("order-1");

        append(
                "order-1",
                RunStatus.CANCELED,
                new WorkflowCancelRequested("order-1", 1, now(), "no longer needed", now()),
                new WorkflowCanceled("order-1", 2, now()));

        assertThat(info("order-1").status()).isEqualTo(RunStatus.CANCELED);
        assertThat(info("order-1").logLength()).isEqualTo(3);
    }

    // ---- status-only appends ----

    @Test
    void statusOnlyAppendUpdatesTheStatusAndWritesNoEvent() {
        create("order-1");
        markRunning("order-1");
        List<Event> before = log().read("order-1", 0);

        AppendResult result = append(new Append("order-1", 2, List.of(), RunStatus.WAITING));

        assertThat(result).isEqualTo(new AppendResult(true, 2, false));
        assertThat(info("order-1").status()).isEqualTo(RunStatus.WAITING);
        assertThat(info("order-1").logLength()).isEqualTo(2);
        assertThat(log().read("order-1", 0)).isEqualTo(before);
    }

    @Test
    void statusOnlyAppendIsFencedByTheExpectedSeq() {
        create("order-1");
        markRunning("order-1");

        AppendResult stale = append(new Append("order-1", 1, List.of(), RunStatus.WAITING));
        AppendResult future = append(new Append("order-1", 3, List.of(), RunStatus.WAITING));

        assertThat(stale).isEqualTo(new AppendResult(false, 2, false));
        assertThat(future).isEqualTo(new AppendResult(false, 2, false));
        assertThat(info("order-1").status()).isEqualTo(RunStatus.RUNNING);
        assertThat(append(new Append("ghost", 1, List.of(), RunStatus.WAITING))).isEqualTo(AppendResult.missing());
    }

    @Test
    void statusOnlyAppendReportsACancelRequest() {
        create("order-1");
        log().requestCancel("order-1", "customer asked");

        AppendResult result = append(new Append("order-1", 1, List.of(), RunStatus.RUNNING));

        assertThat(result.appended()).isTrue();
        assertThat(result.cancelRequested()).isTrue();
    }

    @Test
    void statusOnlyAppendCanEndTheTurn() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        Instant wakeAt = now().plus(Duration.ofMinutes(3));

        AppendResult result =
                append(new Append("order-1", 1, List.of(), RunStatus.SLEEPING, List.of(), new TurnEnd(lease, wakeAt)));

        assertThat(result.appended()).isTrue();
        assertThat(info("order-1").status()).isEqualTo(RunStatus.SLEEPING);
        assertThat(tasks().extend(lease, LEASE)).isEmpty();
        clock.set(wakeAt.minus(MS));
        assertNothingDue();
        clock.set(wakeAt);
        leaseRun("order-1");
    }

    @Test
    void terminalStatusRemovesThePendingTurn() {
        create("order-1"); // due at once

        finish("order-1");

        assertThat(tasks().nextDue(Set.of(QUEUE))).isEmpty();
        clock.advance(Duration.ofDays(1));
        assertNothingDue();
    }

    @Test
    void terminalStatusRemovesATimer() {
        create("order-1");
        tasks().complete(leaseRun("order-1"), now().plus(Duration.ofHours(1)));

        append("order-1", RunStatus.FAILED, new WorkflowFailed("order-1", 1, now(), sampleError()));

        clock.advance(Duration.ofHours(2));
        assertNothingDue();
    }

    // ---- cancellation ----

    @Test
    void requestCancelFlagsTheRunWithoutWritingAnEvent() {
        create("order-1");
        markRunning("order-1");

        log().requestCancel("order-1", "customer asked");

        RunInfo info = info("order-1");
        assertThat(info.cancelRequested()).isTrue();
        assertThat(info.cancelRequest()).isEqualTo(new RunInfo.CancelRequest("customer asked", now(), false));
        assertThat(info.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(info.logLength()).isEqualTo(2);
        assertThat(log().read("order-1", 0)).hasSize(2);
    }

    @Test
    void requestCancelIsVisibleInTheNextAppendResult() {
        create("order-1");
        assertThat(appendStep("order-1", RunStatus.RUNNING).cancelRequested()).isFalse();

        log().requestCancel("order-1", "customer asked");

        assertThat(appendStep("order-1", RunStatus.RUNNING).cancelRequested()).isTrue();
    }

    @Test
    void requestCancelIsIdempotent() {
        create("order-1");

        log().requestCancel("order-1", "first");
        Instant first = now();
        clock.advance(Duration.ofSeconds(5));
        log().requestCancel("order-1", "second");

        assertThat(info("order-1").cancelRequest()).isEqualTo(new RunInfo.CancelRequest("first", first, false));
        assertThat(info("order-1").logLength()).isEqualTo(1);
        assertThat(lease("w", 10)).extracting(Lease::runId).containsExactly("order-1");
    }

    @Test
    void aCancelRequestKeepsWhoAskedFirstOrWhoRaisedItToATermination() {
        create("order-1");
        log().requestCancel("order-1", "first", false, "dashboard:otto");
        Instant first = now();
        log().requestCancel("order-1", "again", false, "billing-service");
        assertThat(info("order-1").cancelRequest())
                .isEqualTo(new RunInfo.CancelRequest("first", first, false, "dashboard:otto"));

        log().requestCancel("order-1", "stop now", true, "dashboard:ada");
        log().requestCancel("order-1", "stop again", true, "billing-service");
        assertThat(info("order-1").cancelRequest())
                .isEqualTo(new RunInfo.CancelRequest("first", first, true, "dashboard:ada"));

        create("order-2");
        log().requestCancel("order-2", "no one said", false);
        assertThat(info("order-2").cancelRequest().actor()).isNull();
    }

    @Test
    void aTerminationRaisesACancellationAndStays() {
        create("order-1");
        log().requestCancel("order-1", "first");
        Instant first = now();
        clock.advance(Duration.ofSeconds(5));

        log().requestCancel("order-1", "stop now", true);
        assertThat(info("order-1").cancelRequest()).isEqualTo(new RunInfo.CancelRequest("first", first, true));

        log().requestCancel("order-1", "only cancel");
        assertThat(info("order-1").cancelRequest()).isEqualTo(new RunInfo.CancelRequest("first", first, true));
        assertThat(info("order-1").logLength()).isEqualTo(1);

        create("order-2");
        log().requestCancel("order-2", "at once", true);
        assertThat(info("order-2").cancelRequest()).isEqualTo(new RunInfo.CancelRequest("at once", now(), true));
        assertThat(lease("w", 10)).extracting(Lease::runId).containsExactlyInAnyOrder("order-1", "order-2");
    }

    @Test
    void requestCancelMakesAnIdleRunDue() {
        create("order-1");
        tasks().complete(leaseRun("order-1"), null); // waiting for a signal, no turn pending
        assertNothingDue();

        log().requestCancel("order-1", "customer asked");

        leaseRun("order-1");
    }

    @Test
    void requestCancelWakesASleepingRunAtOnce() {
        create("order-1");
        tasks().complete(leaseRun("order-1"), now().plus(Duration.ofDays(3)));

        log().requestCancel("order-1", "customer asked");

        leaseRun("order-1");
    }

    @Test
    void requestCancelOnAFinishedRunThrowsRunFinished() {
        create("order-1");
        finish("order-1");

        assertThatThrownBy(() -> log().requestCancel("order-1", "too late"))
                .isInstanceOf(RunFinishedException.class)
                .satisfies(e -> {
                    assertThat(((RunFinishedException) e).runId()).isEqualTo("order-1");
                    assertThat(((RunFinishedException) e).status()).isEqualTo(RunStatus.COMPLETED);
                });
        assertThat(info("order-1").cancelRequested()).isFalse();
        assertNothingDue();
    }

    @Test
    void requestCancelOnAnUnknownRunThrowsRunNotFound() {
        assertThatThrownBy(() -> log().requestCancel("ghost", "who?")).isInstanceOf(RunNotFoundException.class);
        assertThat(queries().get("ghost")).isEmpty();
    }

    // ---- holds ----

    @Test
    void holdSetsHeldAndTheNextSuccessfulAppendClearsIt() {
        create("order-1");
        markRunning("order-1");
        ErrorInfo reason = ErrorInfo.of(
                "io.worldflow.NonDeterministicWorkflowException",
                "at charge: expected step 'charge', found timer 'nap'");

        log().hold("order-1", reason);

        RunInfo held = info("order-1");
        assertThat(held.held()).isEqualTo(reason);
        assertThat(held.isHeld()).isTrue();
        assertThat(held.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(held.logLength()).isEqualTo(2);

        AppendResult conflict = append(new Append("order-1", 1, steps("order-1", 1, 1), RunStatus.RUNNING));
        assertThat(conflict.isConflict()).isTrue();
        assertThat(info("order-1").held())
                .as("a conflicting append leaves the hold")
                .isEqualTo(reason);

        appendStep("order-1", RunStatus.RUNNING);
        assertThat(info("order-1").held()).isNull();
        assertThat(info("order-1").isHeld()).isFalse();
    }

    @Test
    void aHoldKeepsTheTimeItBeganUntilTheRunMakesProgress() {
        create("order-1");
        markRunning("order-1");
        assertThat(info("order-1").heldSince()).isNull();
        Instant first = now();

        log().hold("order-1", ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "first"));
        clock.advance(Duration.ofMinutes(1));
        ErrorInfo again = ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "again");
        log().hold("order-1", again);

        RunInfo held = info("order-1");
        assertThat(held.held()).as("the latest reason").isEqualTo(again);
        assertThat(held.heldSince()).as("since the first hold").isEqualTo(first);

        appendStep("order-1", RunStatus.RUNNING);
        assertThat(info("order-1").heldSince()).isNull();

        clock.advance(Duration.ofMinutes(1));
        Instant second = now();
        log().hold("order-1", again);
        assertThat(info("order-1").heldSince()).as("a new hold begins anew").isEqualTo(second);
    }

    @Test
    void holdOnAnUnknownRunThrowsRunNotFound() {
        assertThatThrownBy(() -> log().hold("ghost", sampleError())).isInstanceOf(RunNotFoundException.class);
        assertThat(queries().get("ghost")).isEmpty();
    }

    @Test
    void holdSurvivesReopen() {
        create("order-1");
        ErrorInfo reason = sampleError();
        log().hold("order-1", reason);

        reopen();

        assertThat(info("order-1").held()).isEqualTo(reason);
    }

    // ---- consumed signals ----

    @Test
    void consumedSignalsAreRemovedWithTheAppend() {
        create("order-1");
        markRunning("order-1");
        long first = signals().send("order-1", "approval", payload("first"));
        long second = signals().send("order-1", "approval", payload("second"));
        long other = signals().send("order-1", "address", payload("elsewhere"));

        AppendResult result = append(
                new Append("order-1", 2, steps("order-1", 2, 1), RunStatus.RUNNING, List.of(first, other), null));

        assertThat(result.appended()).isTrue();
        assertThat(signals().pending("order-1")).extracting(PendingSignal::id).containsExactly(second);
    }

    @Test
    void aConflictingAppendConsumesNoSignal() {
        create("order-1");
        markRunning("order-1");
        long first = signals().send("order-1", "approval", payload("first"));
        List<PendingSignal> before = signals().pending("order-1");

        AppendResult result =
                append(new Append("order-1", 1, steps("order-1", 1, 1), RunStatus.RUNNING, List.of(first), null));

        assertThat(result.isConflict()).isTrue();
        assertThat(signals().pending("order-1")).isEqualTo(before);
    }

    // ---- turn ends ----

    @Test
    void turnEndWithoutWakeAtCompletesTheLeaseWithTheAppend() {
        create("order-1");
        Lease lease = leaseRun("order-1");

        AppendResult result = append(new Append(
                "order-1", 1, steps("order-1", 1, 1), RunStatus.WAITING, List.of(), new TurnEnd(lease, null)));

        assertThat(result.appended()).isTrue();
        assertThat(tasks().extend(lease, LEASE))
                .as("the lease ended with the append")
                .isEmpty();
        clock.advance(LEASE.multipliedBy(4));
        assertNothingDue();
        assertThat(tasks().nextDue(Set.of(QUEUE))).isEmpty();
    }

    @Test
    void turnEndWithWakeAtMakesTheRunDueThen() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        Instant wakeAt = now().plus(Duration.ofMinutes(10));

        append(new Append(
                "order-1", 1, steps("order-1", 1, 1), RunStatus.SLEEPING, List.of(), new TurnEnd(lease, wakeAt)));

        assertThat(tasks().nextDue(Set.of(QUEUE))).contains(wakeAt);
        clock.set(wakeAt.minus(MS));
        assertNothingDue();
        clock.set(wakeAt);
        assertThat(leaseRun("order-1").deliveries()).isEqualTo(1);
    }

    @Test
    void turnEndKeepsATurnRequestedDuringTheLease() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        signals().send("order-1", "approval", payload("yes"));

        append(new Append(
                "order-1", 1, steps("order-1", 1, 1), RunStatus.WAITING, List.of(), new TurnEnd(lease, null)));

        leaseRun("order-1");
    }

    @Test
    void aConflictingAppendDoesNotEndTheTurn() {
        create("order-1");
        markRunning("order-1");
        Lease lease = leaseRun("order-1");

        AppendResult result = append(new Append(
                "order-1", 1, steps("order-1", 1, 1), RunStatus.WAITING, List.of(), new TurnEnd(lease, null)));

        assertThat(result.isConflict()).isTrue();
        assertThat(tasks().extend(lease, LEASE))
                .as("the writer still holds its turn to retry")
                .isPresent();
        assertThat(lease("other", 10)).isEmpty();
    }

    @Test
    void aStaleTurnEndLeavesTheNewHoldersLeaseAlone() {
        create("order-1");
        Lease stale = leaseRun("order-1");
        clock.advance(LEASE.plus(MS));
        Lease current = leaseRun("order-1");

        AppendResult result = append(new Append(
                "order-1", 1, steps("order-1", 1, 1), RunStatus.WAITING, List.of(), new TurnEnd(stale, null)));

        assertThat(result.appended()).as("fencing is by sequence, not by lease").isTrue();
        assertThat(tasks().extend(current, LEASE)).isPresent();
        assertThat(lease("other", 10)).isEmpty();
    }

    @Test
    void appendsOfManyRunsEndTheirTurnsInOneBatch() {
        for (int i = 0; i < 5; i++) {
            create("run-" + i);
        }
        List<Lease> leases = lease("w", 10);
        assertThat(leases).hasSize(5);
        Instant wakeAt = now().plus(Duration.ofMinutes(1));

        List<AppendResult> results = log().append(leases.stream()
                .map(l -> new Append(
                        l.runId(),
                        1,
                        List.<Event>of(stepScheduled(l.runId(), 1)),
                        RunStatus.SLEEPING,
                        List.of(),
                        new TurnEnd(l, wakeAt)))
                .toList());

        assertThat(results).allSatisfy(r -> assertThat(r.appended()).isTrue());
        assertNothingDue();
        clock.set(wakeAt);
        assertThat(lease("w", 10))
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("run-0", "run-1", "run-2", "run-3", "run-4");
    }

    // ---------------------------------------------------------------- reopen (retrying a failed run)

    /** A run that failed: log WorkflowStarted, StepScheduled, WorkflowFailed; its turn completed. */
    private void failedRun(String runId) {
        create(runId);
        Lease lease = leaseRun(runId);
        AppendResult r = append(new Append(
                runId,
                1,
                List.of(stepScheduled(runId, 1), new WorkflowFailed(runId, 2, now(), sampleError())),
                RunStatus.FAILED,
                List.of(),
                new TurnEnd(lease, null)));
        assertThat(r.appended()).isTrue();
        assertNothingDue();
    }

    @Test
    void reopenMakesAFailedRunPendingAndDueWithTheEventAppended() {
        failedRun("order-1");
        clock.advance(Duration.ofSeconds(5));
        WorkflowRetried retried = new WorkflowRetried("order-1", 3, now(), "charge", "card fixed");

        log().reopen(retried);

        RunInfo info = info("order-1");
        assertThat(info.status()).isEqualTo(RunStatus.PENDING);
        assertThat(info.error()).isNull();
        assertThat(info.logLength()).isEqualTo(4);
        assertThat(info.updatedAt()).isEqualTo(now());
        assertThat(log().read("order-1", 3)).containsExactly(retried);
        assertThat(queries()
                        .list(RunQuery.all().withStatuses(RunStatus.PENDING))
                        .runs())
                .extracting(RunInfo::runId)
                .containsExactly("order-1");
        Lease again = leaseRun("order-1");
        assertThat(append(new Append(
                                "order-1",
                                4,
                                List.of(new WorkflowCompleted("order-1", 4, now(), payload("ok"))),
                                RunStatus.COMPLETED,
                                List.of(),
                                new TurnEnd(again, null)))
                        .appended())
                .isTrue();
        assertThat(info("order-1").status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void reopenRefusesARunThatHasNotFailedAndChangesNothing() {
        create("order-1");
        markRunning("order-1");
        create("order-2");
        finish("order-2");

        for (String id : List.of("order-1", "order-2")) {
            RunInfo before = info(id);
            assertThatThrownBy(() -> log().reopen(new WorkflowRetried(id, before.logLength(), now(), null, null)))
                    .isInstanceOf(RunStateException.class)
                    .hasMessageContaining(id)
                    .hasMessageContaining(before.status().name());
            assertThat(info(id)).isEqualTo(before);
        }
    }

    @Test
    void reopenRefusesALogThatChangedAndAnUnknownRun() {
        failedRun("order-1");
        RunInfo before = info("order-1");

        assertThatThrownBy(() -> log().reopen(new WorkflowRetried("order-1", 2, now(), null, null)))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("3 events");
        assertThatThrownBy(() -> log().reopen(new WorkflowRetried("ghost", 1, now(), null, null)))
                .isInstanceOf(RunNotFoundException.class);

        assertThat(info("order-1")).isEqualTo(before);
        assertThat(log().read("order-1", 0)).hasSize(3);
        assertThat(queries().get("ghost")).isEmpty();
        assertNothingDue();
    }

    @Test
    void aReopenedRunCanFailAndBeReopenedAgain() {
        failedRun("order-1");
        log().reopen(new WorkflowRetried("order-1", 3, now(), null, null));
        Lease lease = leaseRun("order-1");
        ErrorInfo again = ErrorInfo.of("com.acme.Declined", "declined again");
        append(new Append(
                "order-1",
                4,
                List.of(new WorkflowFailed("order-1", 4, now(), again)),
                RunStatus.FAILED,
                List.of(),
                new TurnEnd(lease, null)));
        assertThat(info("order-1").error()).isEqualTo(again);

        log().reopen(new WorkflowRetried("order-1", 5, now(), null, "again"));

        assertThat(info("order-1").status()).isEqualTo(RunStatus.PENDING);
        assertThat(log().read("order-1", 0)).hasSize(6);
        leaseRun("order-1");
    }

    // ---------------------------------------------------------------- loading leased runs

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void loadReadsManyRunsWithTheirWholeLogsAndLeavesOutUnknownOnes(AccessPath path) {
        failedRun("order-3");
        create("order-1");
        markRunning("order-1");
        appendStep("order-1", RunStatus.RUNNING);
        create("order-2");
        List<String> ids = new ArrayList<>(List.of("order-2", "ghost", "order-1", "order-3", "order-1"));
        for (int i = 0; i < 250; i++) {
            create("bulk-" + i);
            ids.add("bulk-" + i);
        }

        Map<String, LoadedRun> loaded = path.of(world).load(ids);

        assertThat(loaded).hasSize(253).doesNotContainKey("ghost");
        for (String id : List.of("order-1", "order-2", "order-3", "bulk-0", "bulk-249")) {
            assertThat(loaded.get(id).info()).as(id).isEqualTo(info(id));
            assertThat(loaded.get(id).events()).as(id).isEqualTo(log().read(id, 0));
        }
        assertThat(loaded.get("order-1").events()).hasSize(3);
        assertThat(path.of(world).load(List.of())).isEmpty();
        assertThat(path.of(world).load(List.of("ghost"))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void leaseAndLoadLeasesAsLeaseDoesAndWhatItReadsIsTheWholeRun(AccessPath path) {
        create(newRun("low", QUEUE, 0, now()));
        create(newRun("high", QUEUE, 5, now()));
        markRunning("high");
        appendStep("high", RunStatus.RUNNING);
        create(newRun("later", QUEUE, 9, now().plusSeconds(60)));
        create(newRun("elsewhere", "other", 9, now()));

        LeasedRuns leased = path.of(world).leaseAndLoad("worker-a", Set.of(QUEUE), 10, LEASE, Duration.ZERO);

        assertThat(leased.leases()).extracting(Lease::runId).containsExactly("high", "low");
        assertThat(leased.leases()).allSatisfy(l -> assertThat(l.deliveries()).isEqualTo(1));
        assertThat(leased.runs().keySet()).isSubsetOf("high", "low");
        leased.runs().forEach((id, run) -> {
            assertThat(run.info()).as(id).isEqualTo(info(id));
            assertThat(run.events()).as(id).isEqualTo(log().read(id, 0));
        });
        assertNothingDue();
        for (Lease l : leased.leases()) {
            assertThat(tasks().extend(l, LEASE)).as(l.runId()).isPresent();
        }
        assertThat(path.of(world)
                        .leaseAndLoad("worker-b", Set.of(QUEUE), 10, LEASE, Duration.ofSeconds(61))
                        .leases())
                .extracting(Lease::runId)
                .containsExactly("later");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void leaseAndLoadRefusesBadArgumentsAndLeasesNothing(AccessPath path) {
        create("order-1");

        assertThatThrownBy(() -> path.of(world).leaseAndLoad("w", Set.of(QUEUE), 10, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseFor");
        assertThatThrownBy(() -> path.of(world).leaseAndLoad("w", Set.of(QUEUE), 10, LEASE, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lookahead");
        assertThat(path.of(world)
                        .leaseAndLoad("w", Set.of(), 10, LEASE, Duration.ZERO)
                        .leases())
                .isEmpty();
        assertThat(path.of(world)
                        .leaseAndLoad("w", Set.of(QUEUE), 0, LEASE, Duration.ZERO)
                        .leases())
                .isEmpty();

        leaseRun("order-1");
    }
}
