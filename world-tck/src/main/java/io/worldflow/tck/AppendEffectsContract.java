package io.worldflow.tck;

import io.worldflow.RunFinishedException;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.OutgoingCancel;
import io.worldflow.spi.OutgoingSignal;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.TurnEnd;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * An append's effects on other runs ({@link Append#starts}, {@link Append#signals}, {@link Append#cancels},
 * {@link Append#carrySignalsTo}): each as its facet method does it, skipped silently where that method would throw,
 * and only when the append itself goes through.
 */
public abstract class AppendEffectsContract extends WorldContractSupport {

    static final String CHILD_WORKFLOW = "tck.child.v1";

    protected AppendEffectsContract(WorldConformanceKit kit) {
        super(kit);
    }

    // ---------------------------------------------------------------- starts

    @Test
    void startsCreateRunsAsCreateDoes() {
        create("parent");
        Lease lease = leaseRun("parent");
        NewRun now = child("parent/a", "parent", now());
        NewRun later = child("parent/b", "parent", now().plus(Duration.ofHours(1)));

        AppendResult result =
                append(stepEndingTurn("parent", lease).withEffects(List.of(now, later), null, null, null));

        assertThat(result.appended()).isTrue();
        RunInfo a = info("parent/a");
        assertThat(a.status()).isEqualTo(RunStatus.PENDING);
        assertThat(a.workflow()).isEqualTo(CHILD_WORKFLOW);
        assertThat(a.input()).isEqualTo(now.input());
        assertThat(a.parent()).isEqualTo("parent");
        assertThat(a.logLength()).isEqualTo(1);
        assertThat(log().read("parent/a", 0)).containsExactly(now.startedEvent());
        assertThat(info("parent/b").availableAt()).isEqualTo(later.availableAt());
        assertThat(queries().list(RunQuery.all().withParent("parent")).runs())
                .extracting(RunInfo::runId)
                .containsExactlyInAnyOrder("parent/a", "parent/b");

        tasks().complete(leaseRun("parent/a"), null);
        clock.advance(Duration.ofHours(1));
        leaseRun("parent/b");
    }

    @Test
    void aStartWhoseIdExistsLeavesThatRunUntouched() {
        create("parent");
        create("taken");
        markRunning("taken");
        RunInfo before = info("taken");
        NewRun again = new NewRun(
                "taken", "tck.other.v1", payload("other input"), now(), now(), null, "elsewhere", 7, "parent");

        AppendResult result = append(
                step("parent").withEffects(List.of(again, child("parent/new", "parent", now())), null, null, null));

        assertThat(result.appended()).isTrue();
        assertThat(info("taken")).isEqualTo(before);
        assertThat(log().read("taken", 0)).hasSize(2);
        assertThat(info("parent/new").parent()).isEqualTo("parent");
    }

    // ---------------------------------------------------------------- starts leased to the appending worker

    /** Whether this path leases the starts it is asked to ({@link WorldConformanceKit#leasesAtCreation}). */
    private boolean leasesStarts(AccessPath path) {
        return path == AccessPath.WORLD && kit().leasesAtCreation();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void startsNamedToLeaseBeginLeasedToTheAppendingWorkerAlone(AccessPath path) {
        create("parent");
        Lease parentLease = leaseRun("parent");
        NewRun named = child("parent/a", "parent", now());
        NewRun unnamed = child("parent/b", "parent", now());
        NewRun delayed = child("parent/c", "parent", now().plus(Duration.ofMinutes(5)));

        LeasedAppends out = path.of(world)
                .appendLeasingStarts(
                        List.of(stepEndingTurn("parent", parentLease)
                                .withEffects(List.of(named, unnamed, delayed), null, null, null)),
                        Set.of("parent/a", "parent/c"),
                        "worker-a",
                        LEASE);

        assertThat(out.results())
                .singleElement()
                .satisfies(r -> assertThat(r.appended()).isTrue());
        assertThat(log().read("parent/a", 0)).containsExactly(named.startedEvent());
        if (!leasesStarts(path)) {
            assertThat(out.started().leases())
                    .as("a path that does not lease starts leases nothing")
                    .isEmpty();
            assertThat(out.started().runs()).isEmpty();
            assertThat(dueRuns()).containsExactlyInAnyOrder("parent/a", "parent/b");
            return;
        }
        Lease lease = out.started().leases().getFirst();
        assertThat(out.started().leases())
                .as("only the named start that is due is leased")
                .singleElement()
                .satisfies(l -> {
                    assertThat(l.runId()).isEqualTo("parent/a");
                    assertThat(l.queue()).isEqualTo(QUEUE);
                    assertThat(l.token()).isNotBlank();
                    assertThat(l.expiresAt()).isEqualTo(now().plus(LEASE));
                    assertThat(l.deliveries()).isEqualTo(1);
                });
        assertThat(out.started().runs()).containsOnlyKeys("parent/a");
        assertThat(out.started().runs().get("parent/a").info())
                .as("the run as the world keeps it")
                .isEqualTo(info("parent/a"));
        assertThat(out.started().runs().get("parent/a").events()).containsExactly(named.startedEvent());

        assertThat(dueRuns()).as("the leased start is nobody else's").containsExactly("parent/b");
        clock.advance(LEASE.dividedBy(2));
        Lease extended = tasks().extend(lease, LEASE).orElseThrow();
        clock.set(lease.expiresAt().plus(MS));
        assertNothingDue();
        tasks().complete(extended, null);
        clock.advance(Duration.ofMinutes(5));
        assertThat(dueRuns()).as("the delayed start, due at its time").containsExactly("parent/c");
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void aLeasedStartIsDeliveredAgainWhenItsLeaseLapses(AccessPath path) {
        create("parent");
        idle();
        LeasedAppends out = path.of(world)
                .appendLeasingStarts(
                        List.of(step("parent")
                                .withEffects(List.of(child("parent/a", "parent", now())), null, null, null)),
                        Set.of("parent/a"),
                        "worker-a",
                        LEASE);
        if (!leasesStarts(path)) {
            assertThat(out.started().leases()).isEmpty();
            leaseRun("parent/a");
            return;
        }
        Lease first = out.started().leases().getFirst();
        clock.set(first.expiresAt().plus(MS));

        Lease again = leaseRun("parent/a");
        assertThat(again.token()).isNotEqualTo(first.token());
        assertThat(again.deliveries()).isEqualTo(2);
        assertThat(tasks().extend(first, LEASE)).as("the lapsed lease is stale").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void aStartThatExistsOrWhoseAppendIsRefusedIsNotLeased(AccessPath path) {
        create("parent");
        create("taken");
        idle();
        NewRun again = child("taken", "parent", now());
        NewRun refusedChild = child("parent/late", "parent", now());
        Append stale = new Append("parent", 5, steps("parent", 5, 1), RunStatus.RUNNING)
                .withEffects(List.of(refusedChild), null, null, null);

        LeasedAppends out = path.of(world)
                .appendLeasingStarts(
                        List.of(step("parent").withEffects(List.of(again), null, null, null)),
                        Set.of("taken"),
                        "worker-a",
                        LEASE);
        LeasedAppends refused =
                path.of(world).appendLeasingStarts(List.of(stale), Set.of("parent/late"), "worker-a", LEASE);

        assertThat(out.results().getFirst().appended()).isTrue();
        assertThat(out.started().leases()).as("a start whose id exists").isEmpty();
        assertThat(refused.results().getFirst().isConflict()).isTrue();
        assertThat(refused.started().leases()).as("a start of a refused append").isEmpty();
        assertThat(queries().get("parent/late")).isEmpty();
        assertNothingDue();
    }

    @ParameterizedTest
    @EnumSource(AccessPath.class)
    void appendLeasingStartsForNoTimeOrLessIsRefusedAndWritesNothing(AccessPath path) {
        create("parent");
        long before = length("parent");
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            assertThatThrownBy(() -> path.of(world)
                            .appendLeasingStarts(
                                    List.of(step("parent")
                                            .withEffects(
                                                    List.of(child("parent/a", "parent", now())), null, null, null)),
                                    Set.of("parent/a"),
                                    "worker-a",
                                    bad))
                    .as("appendLeasingStarts for %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaseFor");
        }
        assertThat(length("parent")).isEqualTo(before);
        assertThat(queries().get("parent/a")).isEmpty();
    }

    // ---------------------------------------------------------------- signals

    @Test
    void signalsAreStoredAsSendStoresThemAndDedupedByKey() {
        create("parent");
        create("target");
        idle();
        Instant sentAt = now();

        AppendResult result = append(step("parent")
                .withEffects(
                        null,
                        List.of(
                                signal("target", "approval", "yes", "k-1"),
                                signal("target", "note", "plain", null),
                                signal("target", "approval", "yes again", "k-1")),
                        null,
                        null));

        assertThat(result.appended()).isTrue();
        List<PendingSignal> pending = signals().pending("target");
        assertThat(pending)
                .extracting(PendingSignal::runId, PendingSignal::name, PendingSignal::payload, PendingSignal::sentAt)
                .containsExactly(
                        tuple("target", "approval", payload("yes"), sentAt),
                        tuple("target", "note", payload("plain"), sentAt));
        assertThat(pending.get(0).id()).isLessThan(pending.get(1).id());
        assertThat(dueRuns()).as("the target is due for a turn").containsExactly("target");
        assertThat(signals().send("target", "approval", payload("by send"), "k-1"))
                .isEqualTo(new SignalSent(pending.getFirst().id(), true));

        append(step("parent").withEffects(null, List.of(signal("target", "approval", "once more", "k-1")), null, null));
        assertThat(signals().pending("target")).isEqualTo(pending);
    }

    @Test
    void signalsAndCancelsToMissingOrFinishedRunsAreSkipped() {
        create("parent");
        create("done");
        finish("done");
        create("live");
        RunInfo done = info("done");

        AppendResult result = append(step("parent")
                .withEffects(
                        null,
                        List.of(
                                signal("ghost", "approval", "yes", null),
                                signal("done", "approval", "yes", "k-1"),
                                signal("live", "approval", "yes", null)),
                        List.of(new OutgoingCancel("ghost", "why"), new OutgoingCancel("done", "why")),
                        null));

        assertThat(result.appended()).isTrue();
        assertThat(queries().get("ghost")).isEmpty();
        assertThat(signals().pending("ghost")).isEmpty();
        assertThat(signals().pending("done")).isEmpty();
        assertThat(info("done")).isEqualTo(done);
        assertThat(signals().pending("live")).extracting(PendingSignal::name).containsExactly("approval");
    }

    // ---------------------------------------------------------------- cancels

    @Test
    void cancelsMarkTheRunsForCancellationAndMakeThemDue() {
        create("parent");
        create("target");
        idle();
        Instant at = now();

        AppendResult result = append(
                step("parent").withEffects(null, null, List.of(new OutgoingCancel("target", "parent ended")), null));

        assertThat(result.appended()).isTrue();
        assertThat(info("target").cancelRequest()).isEqualTo(new RunInfo.CancelRequest("parent ended", at, false));
        assertThat(dueRuns()).containsExactly("target");
        assertThat(append(step("target")).cancelRequested()).isTrue();
    }

    @Test
    void aCancelMayAskForTermination() {
        create("parent");
        create("target");
        idle();
        Instant at = now();

        append(step("parent")
                .withEffects(null, null, List.of(new OutgoingCancel("target", "parent ended", true)), null));

        assertThat(info("target").cancelRequest()).isEqualTo(new RunInfo.CancelRequest("parent ended", at, true));
        assertThat(dueRuns()).containsExactly("target");
    }

    // ---------------------------------------------------------------- refused appends

    @Test
    void aRefusedAppendAppliesNoneOfItsEffectsWhileItsBatchmateDoes() {
        create("parent");
        create("target");
        create("target2");
        create("source");
        create("witness");
        signals().send("source", "approval", payload("kept"));
        idle();
        List<PendingSignal> sourceSignals = signals().pending("source");
        Append stale = new Append("parent", 5, steps("parent", 5, 1), RunStatus.RUNNING)
                .withEffects(
                        List.of(child("parent/child", "parent", now())),
                        List.of(signal("target", "approval", "no", null)),
                        List.of(new OutgoingCancel("target", "no")),
                        null);
        Append staleEnd = new Append(
                        "source",
                        4,
                        List.of(new WorkflowCompleted("source", 4, now(), payload("done"))),
                        RunStatus.COMPLETED)
                .withEffects(List.of(newRun("source/next")), null, null, "source/next");
        Append good = step("witness").withEffects(null, List.of(signal("target2", "x", "x", null)), null, null);

        List<AppendResult> results = log().append(List.of(stale, staleEnd, good));

        assertThat(results).extracting(AppendResult::isConflict).containsExactly(true, true, false);
        assertThat(results.get(2).appended()).isTrue();
        assertThat(queries().get("parent/child")).isEmpty();
        assertThat(queries().get("source/next")).isEmpty();
        assertThat(signals().pending("target")).isEmpty();
        assertThat(info("target").cancelRequest()).isNull();
        assertThat(info("source").status()).isEqualTo(RunStatus.PENDING);
        assertThat(signals().pending("source")).isEqualTo(sourceSignals);
        assertThat(signals().pending("target2")).extracting(PendingSignal::name).containsExactly("x");
        assertThat(dueRuns()).containsExactly("target2");
    }

    // ---------------------------------------------------------------- carrying signals

    @Test
    void carrySignalsToMovesThePendingSignalsInOrderAndTheEndedRunRefusesMore() {
        create("run-1");
        Lease lease = leaseRun("run-1");
        Instant t0 = now();
        signals().send("run-1", "approval", payload("first"), "k-a");
        clock.advance(Duration.ofSeconds(1));
        long consumed = signals().send("run-1", "note", payload("consumed"));
        clock.advance(Duration.ofSeconds(1));
        signals().send("run-1", "approval", payload("third"), "k-c");
        clock.advance(Duration.ofSeconds(1));
        signals().send("run-1", "note", payload("fourth"));
        append(new Append("run-1", 1, steps("run-1", 1, 1), RunStatus.RUNNING, List.of(consumed), null));
        clock.advance(Duration.ofSeconds(1));

        AppendResult result = append(end("run-1", lease).withEffects(List.of(newRun("run-2")), null, null, "run-2"));

        assertThat(result.appended()).isTrue();
        assertThat(info("run-1").status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(signals().pending("run-1")).isEmpty();
        List<PendingSignal> carried = signals().pending("run-2");
        assertThat(carried)
                .extracting(PendingSignal::runId, PendingSignal::name, PendingSignal::payload, PendingSignal::sentAt)
                .containsExactly(
                        tuple("run-2", "approval", payload("first"), t0),
                        tuple("run-2", "approval", payload("third"), t0.plusSeconds(2)),
                        tuple("run-2", "note", payload("fourth"), t0.plusSeconds(3)));
        assertThat(carried).extracting(PendingSignal::id).isSorted().doesNotHaveDuplicates();
        assertThat(signals().send("run-2", "approval", payload("again"), "k-c"))
                .as("a carried signal's key stays taken")
                .isEqualTo(new SignalSent(carried.get(1).id(), true));
        long later = signals().send("run-2", "note", payload("later"));
        assertThat(later).isGreaterThan(carried.getLast().id());
        assertThatThrownBy(() -> signals().send("run-1", "approval", payload("too late")))
                .isInstanceOf(RunFinishedException.class);
        assertThat(dueRuns()).containsExactly("run-2");
    }

    @Test
    void carryWithNothingPendingStartsTheSuccessorAlone() {
        create("run-1");
        Lease lease = leaseRun("run-1");

        AppendResult result = append(end("run-1", lease).withEffects(List.of(newRun("run-2")), null, null, "run-2"));

        assertThat(result.appended()).isTrue();
        assertThat(info("run-2").status()).isEqualTo(RunStatus.PENDING);
        assertThat(signals().pending("run-2")).isEmpty();
        assertThat(dueRuns()).containsExactly("run-2");
    }

    @Test
    void aSignalSentWhileTheRunEndsIsEitherCarriedOrRefused() throws Exception {
        create("run-1");
        Lease lease = leaseRun("run-1");
        int senders = 4;
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        CountDownLatch someSent = new CountDownLatch(senders * 3);
        List<Future<Integer>> refusals = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(senders)) {
            for (int s = 0; s < senders; s++) {
                int sender = s;
                refusals.add(pool.submit(() -> {
                    for (int i = 0; ; i++) {
                        String body = sender + "-" + i;
                        try {
                            signals().send("run-1", "tick", payload(body));
                        } catch (RunFinishedException refused) {
                            return i;
                        }
                        accepted.add(body);
                        someSent.countDown();
                    }
                }));
            }
            assertThat(someSent.await(30, TimeUnit.SECONDS)).isTrue();

            AppendResult result =
                    append(end("run-1", lease).withEffects(List.of(newRun("run-2")), null, null, "run-2"));

            assertThat(result.appended()).isTrue();
            for (Future<Integer> refused : refusals) {
                assertThat(refused.get(30, TimeUnit.SECONDS))
                        .as("sends before the refusal")
                        .isNotNegative();
            }
        }
        Set<String> carried = new HashSet<>();
        for (PendingSignal p : signals().pending("run-2")) {
            carried.add(codec.decode(p.payload(), String.class, "a signal of the conformance kit"));
        }
        assertThat(carried).as("every signal whose send returned, and no other").isEqualTo(accepted);
        assertThat(signals().pending("run-1")).isEmpty();
    }

    // ---------------------------------------------------------------- bad inputs

    @Test
    void badEffectsAreRefusedByTheAppendItselfAndChangeNothing() {
        create("run-1");
        Lease lease = leaseRun("run-1");

        assertThatThrownBy(() -> end("run-1", lease).withEffects(List.of(newRun("run-2")), null, null, "run-3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run-3")
                .hasMessageContaining("run-2");
        assertThatThrownBy(() -> step("run-1").withEffects(List.of(newRun("run-2")), null, null, "run-2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RUNNING");
        assertThatThrownBy(() -> step("run-1").withEffects(null, List.of(signal("run-1", "x", "x", null)), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run-1");

        assertThat(queries().get("run-2")).isEmpty();
        assertThat(queries().get("run-3")).isEmpty();
        assertThat(info("run-1").logLength()).isEqualTo(1);
        assertThat(info("run-1").status()).isEqualTo(RunStatus.PENDING);
    }

    // ---------------------------------------------------------------- size

    /** More effects than one DynamoDB transaction holds (100 items): a world may split them, never lose any. */
    @Test
    void manyEffectsInOneAppendAllTakeEffect() {
        create("run-1");
        Lease lease = leaseRun("run-1");
        create("witness");
        idle();
        signals().send("run-1", "approval", payload("carried"), "k-1");
        List<NewRun> children = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            children.add(child("run-1/child-%03d".formatted(i), "run-1", now()));
        }
        List<OutgoingSignal> toWitness = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            toWitness.add(signal("witness", "tick", "t-" + i, "k-" + i));
        }

        AppendResult result = append(end("run-1", lease)
                .withEffects(
                        children,
                        toWitness,
                        List.of(new OutgoingCancel("witness", "enough")),
                        children.getFirst().runId()));

        assertThat(result.appended()).isTrue();
        assertThat(queries()
                        .list(RunQuery.all().withParent("run-1").withLimit(1000))
                        .runs())
                .extracting(RunInfo::runId, RunInfo::status)
                .hasSize(150)
                .containsOnly(children.stream()
                        .map(c -> tuple(c.runId(), RunStatus.PENDING))
                        .toArray(Tuple[]::new));
        assertThat(signals().pending("run-1/child-000"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload("carried"));
        assertThat(signals().pending("witness"))
                .extracting(PendingSignal::payload)
                .containsExactlyElementsOf(
                        toWitness.stream().map(OutgoingSignal::payload).toList());
        assertThat(info("witness").cancelRequest().reason()).isEqualTo("enough");
        Set<String> due = new HashSet<>(dueRuns());
        assertThat(due).hasSize(151).contains("witness", "run-1/child-149");
    }

    // ---------------------------------------------------------------- helpers

    NewRun child(String runId, String parent, Instant availableAt) {
        return new NewRun(
                runId, CHILD_WORKFLOW, payload(Map.of("for", parent)), now(), availableAt, null, QUEUE, 0, parent);
    }

    OutgoingSignal signal(String runId, String name, String body, String key) {
        return new OutgoingSignal(runId, name, payload(body), key);
    }

    /** One step event at the log's current end, the run RUNNING after it. */
    Append step(String runId) {
        return new Append(runId, length(runId), steps(runId, length(runId), 1), RunStatus.RUNNING);
    }

    /** One step event that also ends the turn {@code lease} holds, with nothing next. */
    Append stepEndingTurn(String runId, Lease lease) {
        long at = length(runId);
        return new Append(runId, at, steps(runId, at, 1), RunStatus.RUNNING, List.of(), new TurnEnd(lease, null));
    }

    /** The run's completion, ending the turn {@code lease} holds. */
    Append end(String runId, Lease lease) {
        long at = length(runId);
        List<Event> done = List.of(new WorkflowCompleted(runId, at, now(), payload("done")));
        return new Append(runId, at, done, RunStatus.COMPLETED, List.of(), new TurnEnd(lease, null));
    }

    /** Takes every due turn and ends it with nothing next, so that only what a test does next makes a run due. */
    void idle() {
        drainOneByOne(Set.of(QUEUE));
    }

    /** The runs due now, each turn taken and ended. */
    List<String> dueRuns() {
        return drainOneByOne(Set.of(QUEUE));
    }
}
