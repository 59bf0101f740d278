package io.worldflow.tck;

import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.TurnEnd;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Retention ({@link EventLog#purgeFinished}): runs that finished before a cutoff are deleted with everything the world
 * keeps of them, so that their ids are free again; every other run is left exactly as it was, whatever it is doing;
 * batches are bounded; purges side by side, or racing with a reopen, delete each run once and only while it is
 * finished.
 */
public abstract class RetentionContract extends WorldContractSupport {

    /** How long ago the old runs finished when a test purges. */
    private static final Duration AGE = Duration.ofHours(1);

    protected RetentionContract(WorldConformanceKit kit) {
        super(kit);
    }

    // ---- runs in each state, created and driven through the SPI ----

    private void completed(String runId) {
        create(runId);
        finish(runId);
    }

    private void failed(String runId) {
        create(runId);
        failNow(runId);
    }

    private void failNow(String runId) {
        AppendResult r =
                append(runId, RunStatus.FAILED, new WorkflowFailed(runId, length(runId), now(), sampleError()));
        assertThat(r.appended()).as("failure of %s was written", runId).isTrue();
    }

    private void canceled(String runId) {
        create(runId);
        markRunning(runId);
        log().requestCancel(runId, "no longer wanted");
        AppendResult r = append(runId, RunStatus.CANCELED, new WorkflowCanceled(runId, length(runId), now()));
        assertThat(r.appended()).as("cancellation of %s was written", runId).isTrue();
    }

    /** A finished run of each terminal status in turn, by {@code i}. */
    private void finished(String runId, int i) {
        switch (i % 3) {
            case 0 -> completed(runId);
            case 1 -> failed(runId);
            default -> canceled(runId);
        }
    }

    /** A run leased from its own queue and asleep until {@code wakeAt}, its turn due then. */
    private void sleeping(String runId, String queue, Instant wakeAt) {
        create(newRun(runId, queue, 0, now()));
        List<Lease> leases = tasks().lease("sleeper", Set.of(queue), 1, LEASE);
        assertThat(leases).extracting(Lease::runId).containsExactly(runId);
        AppendResult r = append(new Append(
                runId, 1, steps(runId, 1, 1), RunStatus.SLEEPING, List.of(), new TurnEnd(leases.getFirst(), wakeAt)));
        assertThat(r.appended()).isTrue();
    }

    // ---- what a run looks like from outside ----

    /** Everything the SPI shows of a run. */
    private record Seen(RunInfo info, List<Event> events, List<PendingSignal> pending) {}

    private Seen seen(String runId) {
        return new Seen(info(runId), log().read(runId, 0), signals().pending(runId));
    }

    private Map<String, Seen> seen(List<String> runIds) {
        Map<String, Seen> out = new LinkedHashMap<>();
        runIds.forEach(id -> out.put(id, seen(id)));
        return out;
    }

    /** Asserts that nothing is left of the run: no projection, no log, no signals, nothing to send to. */
    private void assertGone(String runId) {
        assertThat(queries().get(runId)).as("projection of %s", runId).isEmpty();
        assertThatThrownBy(() -> log().read(runId, 0)).as("log of %s", runId).isInstanceOf(RunNotFoundException.class);
        assertThat(signals().pending(runId)).as("signals of %s", runId).isEmpty();
        assertThatThrownBy(() -> signals().send(runId, "late", payload(1)))
                .as("a signal to %s", runId)
                .isInstanceOf(RunNotFoundException.class);
    }

    private List<String> listed(RunQuery query) {
        return queries().list(query.withLimit(RunQuery.MAX_LIMIT)).runs().stream()
                .map(RunInfo::runId)
                .toList();
    }

    // ---------------------------------------------------------------- what goes

    @Test
    void finishedRunsOfEveryStatusOlderThanTheCutoffAreDeletedWhole() {
        create(newRun("parent", "parents", 0, now()));
        markRunning("parent");
        create(new NewRun("done", WORKFLOW, payload("in"), now(), now(), null, QUEUE, 0, "parent"));
        signals().send("done", "approval", payload("never read"), "approval-1");
        finish("done");
        create("failed");
        signals().send("failed", "approval", payload("never read either"), "approval-1");
        failNow("failed");
        canceled("canceled");
        // a long log: more rows, pages or items than one delete takes
        create("long");
        for (int i = 0; i < 60; i++) {
            appendStep("long", RunStatus.RUNNING);
        }
        finish("long");
        clock.advance(AGE);

        int deleted = log().purgeFinished(now(), 100);

        assertThat(deleted).isEqualTo(4);
        for (String id : List.of("done", "failed", "canceled", "long")) {
            assertGone(id);
        }
        assertThat(listed(RunQuery.all())).containsExactly("parent");
        assertThat(listed(RunQuery.all().withStatuses(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED)))
                .isEmpty();
        assertThat(listed(RunQuery.all().withParent("parent"))).isEmpty();
        assertThat(queries().countByStatus(RunQuery.all()))
                .containsEntry(RunStatus.RUNNING, 1L)
                .allSatisfy((status, count) ->
                        assertThat(count).as("%s runs", status).isEqualTo(status == RunStatus.RUNNING ? 1L : 0L));
        assertThat(log().read("parent", 0)).hasSize(2);
        assertNothingDue();

        // each id is free: created again, it is a new run with nothing of the old one
        for (String id : List.of("done", "failed", "canceled", "long")) {
            RunInfo again = create(id);
            assertThat(again.logLength()).as(id).isEqualTo(1);
            assertThat(again.parent()).as(id).isNull();
            assertThat(log().read(id, 0)).as(id).singleElement().isInstanceOf(WorkflowStarted.class);
            assertThat(signals().pending(id)).as(id).isEmpty();
        }
        assertThat(signals()
                        .send("done", "approval", payload("new"), "approval-1")
                        .duplicate())
                .as("the old run's signal key was deleted with it")
                .isFalse();
        assertThat(lease("w", 10))
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("done", "failed", "canceled", "long");
        assertThat(length("long")).isEqualTo(1);
    }

    @Test
    void aPurgeOfNothingDeletesNothing() {
        assertThat(log().purgeFinished(now(), 10)).isZero();
        create("pending");
        assertThat(log().purgeFinished(now().plus(AGE), 10)).isZero();
        assertThat(info("pending").status()).isEqualTo(RunStatus.PENDING);
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> log().purgeFinished(now(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(() -> log().purgeFinished(now(), -5)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---------------------------------------------------------------- what stays

    @Test
    void runsNotFinishedOrFinishedSinceTheCutoffAreLeftAsTheyWere() {
        completed("old");
        create("pending");
        create("running");
        markRunning("running");
        create("waiting");
        appendStep("waiting", RunStatus.WAITING);
        signals().send("waiting", "approval", payload("kept"), "waiting-1");
        create("held");
        markRunning("held");
        log().hold("held", sampleError());
        sleeping("sleeping", "sleepers", now().plus(AGE.multipliedBy(2)));
        // created long before the cutoff, finished at it or after it
        create("at-cutoff");
        create("late-completed");
        create("late-failed");
        clock.advance(AGE);
        Instant cutoff = now();
        finish("at-cutoff");
        clock.advance(MS);
        finish("late-completed");
        failNow("late-failed");
        List<String> kept = List.of(
                "pending", "running", "waiting", "held", "sleeping", "at-cutoff", "late-completed", "late-failed");
        Map<String, Seen> before = seen(kept);

        assertThat(log().purgeFinished(cutoff, 100)).isEqualTo(1);

        assertGone("old");
        assertThat(seen(kept)).isEqualTo(before);
        assertThat(info("held").held()).isNotNull();
        // their turns are still there: due now, or when the sleeper wakes
        assertThat(lease("w", 10))
                .extracting(Lease::runId)
                .containsExactlyInAnyOrder("pending", "running", "waiting", "held");
        clock.advance(AGE);
        assertThat(tasks().lease("w", Set.of("sleepers"), 10, LEASE))
                .extracting(Lease::runId)
                .containsExactly("sleeping");
    }

    @Test
    void aFailedRunReopenedBeforeThePurgeStays() {
        failed("retried");
        failed("left");
        clock.advance(AGE);
        WorkflowRetried retried = new WorkflowRetried("retried", 2, now(), null, "fixed");
        log().reopen(retried);
        clock.advance(MS);

        assertThat(log().purgeFinished(now(), 100)).isEqualTo(1);

        assertGone("left");
        assertThat(info("retried").status()).isEqualTo(RunStatus.PENDING);
        assertThat(log().read("retried", 0)).hasSize(3).last().isEqualTo(retried);
        assertThat(lease("w", 10)).extracting(Lease::runId).containsExactly("retried");
    }

    // ---------------------------------------------------------------- continue-as-new chains

    /** Ends the running run by handing over to {@code successor}, as continue-as-new does: one append. */
    private void continueAs(String runId, String successor) {
        NewRun next =
                new NewRun(successor, WORKFLOW, payload("next"), now(), now(), null, QUEUE, 0).withContinuedFrom(runId);
        long seq = length(runId);
        Append handOver = new Append(
                        runId,
                        seq,
                        List.of(new WorkflowContinuedAsNew(runId, seq, now(), successor, next.input())),
                        RunStatus.COMPLETED)
                .withEffects(List.of(next), List.of(), List.of(), successor);
        assertThat(append(handOver).appended())
                .as("%s handed over to %s", runId, successor)
                .isTrue();
        markRunning(successor);
    }

    @Test
    void aChainThatContinuedAsNewStaysWhileItsLastRunDoesAndThenGoesNewestFirst() {
        create("chain");
        markRunning("chain");
        continueAs("chain", "chain~2");
        continueAs("chain~2", "chain~3");
        completed("alone");
        // a run that only looks like a successor is a run of its own
        completed("alone~2");
        clock.advance(AGE);

        assertThat(log().purgeFinished(now(), 100)).isEqualTo(2);

        assertGone("alone");
        assertGone("alone~2");
        for (String id : List.of("chain", "chain~2")) {
            assertThat(info(id).status()).as(id).isEqualTo(RunStatus.COMPLETED);
            assertThat(log().read(id, 0)).as(id).last().isInstanceOf(WorkflowContinuedAsNew.class);
        }
        assertThat(info("chain~3").status()).isEqualTo(RunStatus.RUNNING);

        // the last run ends: the chain goes from its end, as far as the limit allows in each call
        finish("chain~3");
        clock.advance(AGE);
        assertThat(log().purgeFinished(now(), 2)).isEqualTo(2);
        assertGone("chain~3");
        assertGone("chain~2");
        assertThat(info("chain").status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(log().purgeFinished(now(), 2)).isEqualTo(1);
        assertGone("chain");
    }

    @Test
    void aFinishedChainGoesWholeInOneCall() {
        create("long-chain");
        markRunning("long-chain");
        String last = "long-chain";
        for (int n = 2; n <= 12; n++) {
            continueAs(last, "long-chain~" + n);
            last = "long-chain~" + n;
        }
        finish(last);
        clock.advance(AGE);

        assertThat(log().purgeFinished(now(), 100)).isEqualTo(12);

        assertGone("long-chain");
        for (int n = 2; n <= 12; n++) {
            assertGone("long-chain~" + n);
        }
        assertThat(log().purgeFinished(now(), 100)).isZero();
    }

    // ---------------------------------------------------------------- batches and concurrency

    @Test
    void theLimitBoundsABatchAndTheNextCallsDeleteTheRest() {
        for (int i = 0; i < 5; i++) {
            finished("done-" + i, i);
        }
        clock.advance(AGE);

        assertThat(log().purgeFinished(now(), 2)).isEqualTo(2);
        assertThat(listed(RunQuery.all())).hasSize(3);
        assertThat(log().purgeFinished(now(), 2)).isEqualTo(2);
        assertThat(listed(RunQuery.all())).hasSize(1);
        assertThat(log().purgeFinished(now(), 2)).isEqualTo(1);
        assertThat(log().purgeFinished(now(), 2)).isZero();

        for (int i = 0; i < 5; i++) {
            assertGone("done-" + i);
        }
    }

    @Test
    void purgesSideBySideDeleteEachRunOnce() throws Exception {
        int runs = 40;
        for (int i = 0; i < runs; i++) {
            finished("done-" + i, i);
        }
        create("pending");
        clock.advance(AGE);
        Instant cutoff = now();
        // two processes when the storage can be shared, two callers of each
        World other = kit().supportsSharedStorage() ? open() : world;
        List<EventLog> logs = List.of(log(), other.eventLog(), log(), other.eventLog());
        CyclicBarrier start = new CyclicBarrier(logs.size());
        ExecutorService pool = Executors.newFixedThreadPool(logs.size());
        int total = 0;
        try {
            List<Future<Integer>> purges = new ArrayList<>();
            for (EventLog l : logs) {
                purges.add(pool.submit(() -> {
                    start.await();
                    int deleted = 0;
                    for (int n = l.purgeFinished(cutoff, 3); n > 0; n = l.purgeFinished(cutoff, 3)) {
                        deleted += n;
                    }
                    return deleted;
                }));
            }
            for (Future<Integer> f : purges) {
                total += f.get();
            }
        } finally {
            pool.shutdownNow();
            if (other != world) {
                other.close();
            }
        }

        assertThat(total)
                .as("runs deleted, counted by the purge that deleted each")
                .isEqualTo(runs);
        for (int i = 0; i < runs; i++) {
            assertGone("done-" + i);
        }
        assertThat(listed(RunQuery.all())).containsExactly("pending");
    }

    @Test
    void aPurgeRacingWithReopensDeletesOnlyRunsThatStayedFailed() throws Exception {
        int runs = 30;
        for (int i = 0; i < runs; i++) {
            failed("run-" + i);
        }
        clock.advance(AGE);
        Instant cutoff = now();
        Set<String> reopened = ConcurrentHashMap.newKeySet();
        Set<String> notFound = ConcurrentHashMap.newKeySet();
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int purged = 0;
        try {
            Future<Integer> purge = pool.submit(() -> {
                start.await();
                int deleted = 0;
                for (int n = log().purgeFinished(cutoff, 2); n > 0; n = log().purgeFinished(cutoff, 2)) {
                    deleted += n;
                }
                return deleted;
            });
            Future<?> reopen = pool.submit(() -> {
                start.await();
                // from the far end, to meet the purge in the middle; stamped at the cutoff, so a reopened run is
                // one that did not finish before it
                for (int i = runs - 1; i >= 0; i--) {
                    String id = "run-" + i;
                    try {
                        log().reopen(new WorkflowRetried(id, 2, cutoff, null, "race"));
                        reopened.add(id);
                    } catch (RunNotFoundException e) {
                        notFound.add(id);
                    }
                }
                return null;
            });
            purged = purge.get();
            reopen.get();
        } finally {
            pool.shutdownNow();
        }

        assertThat(purged + reopened.size())
                .as("each run deleted or reopened, not both")
                .isEqualTo(runs);
        // either side may have won every race on a busy machine, so either set may be empty
        assertThat(reopened).filteredOn(notFound::contains).isEmpty();
        for (int i = 0; i < runs; i++) {
            String id = "run-" + i;
            if (reopened.contains(id)) {
                assertThat(info(id).status()).as(id).isEqualTo(RunStatus.PENDING);
                assertThat(log().read(id, 0)).as(id).hasSize(3).last().isInstanceOf(WorkflowRetried.class);
            } else {
                assertGone(id);
            }
        }
    }
}
