package io.worldflow.tck;

import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowFailedException;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Continue-as-new end to end: a run hands over to a successor of the same workflow in one write, the chain's ids are
 * derived from the first, each log stays short, signals not yet taken go along and signals sent to a run that
 * continued reach its successor, results and a parent follow the chain to its last run.
 */
public abstract class ContinueAsNewContract extends WorkflowContractSupport {

    protected ContinueAsNewContract(WorldConformanceKit kit) {
        super(kit);
    }

    /** Counts up to its input's target, one run per step, carrying the sum along. */
    private final Workflow<int[], Integer> counter = Workflow.define("tck.can.counter", int[].class, (ctx, in) -> {
        int n = in[0];
        int sum = in[1] + ctx.step("add", () -> n);
        if (n >= in[2]) {
            return sum;
        }
        return ctx.continueAsNew(new int[] {n + 1, sum, in[2]});
    });

    @Test
    void aRunHandsOverToItsSuccessorsAndTheFirstRunsHandleGivesTheLastResult() {
        worldflow(counter);
        RunHandle<Integer> run = wf.start(counter, new int[] {1, 0, 5}, StartOptions.id("can-count"));

        assertThat(run.result(WAIT)).isEqualTo(1 + 2 + 3 + 4 + 5);
        assertThat(awaitStatus("can-count~5", RunStatus.COMPLETED).output().json())
                .isEqualTo("15");
        for (String id : List.of("can-count", "can-count~2", "can-count~3", "can-count~4")) {
            RunInfo info = wf.run(id).orElseThrow();
            assertThat(info.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(types(id))
                    .containsExactly(
                            "WorkflowStarted",
                            "StepScheduled",
                            "StepStarted",
                            "StepCompleted",
                            "WorkflowContinuedAsNew");
        }
        assertThat(eventsOf("can-count~3", WorkflowContinuedAsNew.class)
                        .getFirst()
                        .successorRunId())
                .isEqualTo("can-count~4");
        WorkflowStarted third =
                (WorkflowStarted) world.eventLog().read("can-count~3", 0).getFirst();
        assertThat(third.continuedFrom()).isEqualTo("can-count~2");
        assertThat(wf.run("can-count~6")).isEmpty();
    }

    /**
     * A successor begins on its predecessor's worker with the write that ends the predecessor, where the world leases
     * starts: nobody asks for its first turn. Elsewhere it is leased like any other turn.
     */
    @Test
    void aSuccessorBeginsOnItsPredecessorsWorkerWithTheWriteThatEndsIt() {
        boolean leasesStarts = kit().leasesAtCreation();
        LeaseWatch watch = new LeaseWatch(world);
        wf = Worldflow.builder().world(watch).clock(clock).register(counter).build();
        // where starts are leased, the worker asks for due turns only when told of some, never just in case
        wf.startWorker(leasesStarts ? workerOptions().withPollInterval(Duration.ofMinutes(1)) : workerOptions());

        RunHandle<Integer> run = wf.start(counter, new int[] {1, 0, 2}, StartOptions.id("can-here"));

        assertThat(run.result(WAIT)).isEqualTo(1 + 2);
        if (leasesStarts) {
            assertThat(watch.leasedAsStarted()).containsExactly("can-here~2");
            assertThat(watch.leasedByAsking()).doesNotContain("can-here~2");
        } else {
            assertThat(watch.leasedAsStarted()).isEmpty();
            assertThat(watch.leasedByAsking()).contains("can-here~2");
        }
    }

    @Test
    void signalsNotYetTakenGoToTheSuccessorAndSignalsToAnEndedRunFollowTheChain() {
        Workflow<Integer, String> inbox = Workflow.define("tck.can.inbox", Integer.class, (ctx, round) -> {
            String got = ctx.awaitSignal("msg", String.class);
            if (round == 1) {
                ctx.sleep("pause", Duration.ofMinutes(1)); // more messages arrive meanwhile
            }
            if (round < 3) {
                return ctx.continueAsNew(round + 1);
            }
            return "last got " + got;
        });
        worldflow(inbox);
        RunHandle<String> run = wf.start(inbox, 1, StartOptions.id("can-inbox"));
        awaitStatus("can-inbox", RunStatus.WAITING);
        wf.signal("can-inbox", "msg", "a");
        awaitStatus("can-inbox", RunStatus.SLEEPING);
        wf.signal("can-inbox", "msg", "b");
        wf.signal("can-inbox", "msg", "c");

        clock.advance(Duration.ofMinutes(1));
        assertThat(run.result(WAIT)).isEqualTo("last got c");
        assertThat(eventsOf("can-inbox~2", SignalReceived.class))
                .extracting(s -> s.payload().json())
                .containsExactly("\"b\"");
        assertThat(world.signals().pending("can-inbox")).isEmpty();

        // a run that has continued passes a signal on to its successor
        Workflow<Integer, String> waiter = Workflow.define(
                "tck.can.waiter",
                Integer.class,
                (ctx, round) -> round == 1 ? ctx.continueAsNew(2) : "got " + ctx.awaitSignal("late", String.class));
        restart(inbox, waiter);
        RunHandle<String> second = wf.start(waiter, 1, StartOptions.id("can-waiter"));
        awaitStatus("can-waiter~2", RunStatus.WAITING);
        wf.signal("can-waiter", "late", "x");
        assertThat(second.result(WAIT)).isEqualTo("got x");
    }

    @Test
    void retentionKeepsAChainThatStillRunsSoItsFirstIdLeadsToItsLastRun() {
        Workflow<Integer, String> kept = Workflow.define(
                "tck.can.kept",
                Integer.class,
                (ctx, round) ->
                        round < 3 ? ctx.continueAsNew(round + 1) : "got " + ctx.awaitSignal("go", String.class));
        worldflow(kept);
        RunHandle<String> run = wf.start(kept, 1, StartOptions.id("can-kept"));
        awaitStatus("can-kept~3", RunStatus.WAITING);
        clock.advance(Duration.ofDays(1));

        assertThat(world.eventLog().purgeFinished(clock.instant(), 100)).isZero();

        assertThat(wf.run("can-kept").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(wf.run("can-kept~2").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        wf.signal("can-kept", "go", "x");
        assertThat(run.result(WAIT)).isEqualTo("got x");
        assertThat(wf.handle("can-kept", String.class).result(WAIT)).isEqualTo("got x");

        clock.advance(Duration.ofDays(1));
        assertThat(world.eventLog().purgeFinished(clock.instant(), 100)).isEqualTo(3);
        for (String id : List.of("can-kept", "can-kept~2", "can-kept~3")) {
            assertThat(wf.run(id)).as(id).isEmpty();
        }
    }

    @Test
    void aChainIsReadCanceledTerminatedAndRetriedByItsFirstIdInItsNewestRun() {
        java.util.concurrent.atomic.AtomicBoolean fixed = new java.util.concurrent.atomic.AtomicBoolean();
        Workflow<Integer, String> chain = Workflow.define("tck.can.byfirst", Integer.class, (ctx, round) -> {
            if (round < 3) {
                return ctx.continueAsNew(round + 1);
            }
            String go = ctx.awaitSignal("go", String.class);
            return ctx.step("check", io.worldflow.StepOptions.retry(io.worldflow.RetryPolicy.none()), () -> {
                if (!fixed.get()) {
                    throw new IllegalStateException("not fixed yet");
                }
                return "done " + go;
            });
        });
        worldflow(chain);
        for (String id : List.of("can-by-cancel", "can-by-handle", "can-by-term", "can-by-retry")) {
            wf.start(chain, 1, StartOptions.id(id));
            awaitStatus(id + "~3", RunStatus.WAITING);
        }

        RunHandle<String> handle = wf.handle("can-by-cancel", String.class);
        assertThat(handle.status()).as("the chain's newest run's").isEqualTo(RunStatus.WAITING);
        assertThat(handle.info().runId()).isEqualTo("can-by-cancel~3");
        assertThat(wf.run("can-by-cancel").orElseThrow().status())
                .as("the first run itself")
                .isEqualTo(RunStatus.COMPLETED);
        wf.cancel("can-by-cancel", "by its first id");
        awaitStatus("can-by-cancel~3", RunStatus.CANCELED);
        assertThat(handle.status()).isEqualTo(RunStatus.CANCELED);

        wf.handle("can-by-handle", String.class).cancel();
        awaitStatus("can-by-handle~3", RunStatus.CANCELED);

        wf.terminate("can-by-term", "by its first id");
        awaitStatus("can-by-term~3", RunStatus.CANCELED);

        wf.signal("can-by-retry", "go", "x");
        awaitStatus("can-by-retry~3", RunStatus.FAILED);
        fixed.set(true);
        wf.retry("can-by-retry", "fixed");
        assertThat(wf.handle("can-by-retry", String.class).result(WAIT)).isEqualTo("done x");
        assertThatThrownBy(() -> wf.cancel("can-by-retry"))
                .as("a chain that has ended")
                .isInstanceOf(io.worldflow.RunFinishedException.class)
                .hasMessageContaining("can-by-retry~3");
    }

    @Test
    void aLongChainIsReachedByItsFirstIdInAFewLookupsAndARunThatOnlyLooksLikeASuccessorIsPassedOver() {
        Workflow<Integer, String> chain = Workflow.define("tck.can.long", Integer.class, (ctx, round) -> {
            if (round < 40) {
                return ctx.continueAsNew(round + 1);
            }
            return "done " + round + " " + ctx.awaitSignal("go", String.class);
        });
        worldflow(chain);
        wf.start(chain, 1, StartOptions.id("can-long"));
        awaitStatus("can-long~40", RunStatus.WAITING);

        // a client over the same world that counts the runs it looks up
        AtomicInteger lookups = new AtomicInteger();
        try (Worldflow client = Worldflow.builder()
                .world(countingLookups(world, lookups))
                .clock(clock)
                .register(chain)
                .build()) {
            assertThat(client.handle("can-long", String.class).info().runId()).isEqualTo("can-long~40");
            assertThat(lookups.get())
                    .as("lookups to find the 40th run from the first (one by one, it takes 40)")
                    .isLessThanOrEqualTo(20);

            // a run started with an id of the chain's form, past its end, is no run of it
            wf.start(chain, 99, StartOptions.id("can-long~49"));
            awaitStatus("can-long~49", RunStatus.WAITING);
            assertThat(client.handle("can-long", String.class).info().runId()).isEqualTo("can-long~40");
            client.signal("can-long", "go", "x");
        }
        assertThat(wf.handle("can-long", String.class).result(WAIT)).isEqualTo("done 40 x");
        assertThat(wf.run("can-long~49").orElseThrow().status())
                .as("the look-alike got nothing")
                .isEqualTo(RunStatus.WAITING);
        assertThat(eventsOf("can-long~49", SignalReceived.class)).isEmpty();
    }

    /** {@code world}, its run lookups counted; closing it leaves the world open. */
    private static World countingLookups(World world, AtomicInteger lookups) {
        RunQueries counted = WorldParts.watched(RunQueries.class, world.runQueries(), (method, args) -> {
            if (method.getName().equals("get")) {
                lookups.incrementAndGet();
            }
        });
        return WorldParts.with(world, Map.of("runQueries", counted));
    }

    @Test
    void aChildThatContinuesAsNewReturnsItsLastResultToItsParent() {
        Workflow<String, Integer> parent = Workflow.define(
                "tck.can.parent", String.class, (ctx, in) -> ctx.child("count", counter, new int[] {1, 0, 3}));
        worldflow(parent, counter);
        RunHandle<Integer> run = wf.start(parent, "p", StartOptions.id("can-parent"));

        assertThat(run.result(WAIT)).isEqualTo(6);
        assertThat(wf.run("can-parent/count~3").orElseThrow().parent()).isEqualTo("can-parent");
        assertThat(world.signals().pending("can-parent")).isEmpty();
    }

    @Test
    void continuingFromABranchOrWithTheWrongInputIsAClearErrorAndStartsNothing() {
        Workflow<Integer, String> wrong = Workflow.define("tck.can.wrong", Integer.class, (ctx, n) -> {
            StringBuilder errors = new StringBuilder();
            try {
                ctx.continueAsNew("not a number");
            } catch (IllegalArgumentException e) {
                errors.append(e.getMessage());
            }
            try {
                ctx.parallel("fan", List.of(1), (branch, i) -> branch.continueAsNew(i));
            } catch (IllegalStateException e) {
                errors.append(" / ").append(e.getMessage());
            }
            return errors.toString();
        });
        worldflow(wrong);
        String errors = wf.start(wrong, 1, StartOptions.id("can-wrong")).result(WAIT);

        assertThat(errors)
                .contains("java.lang.Integer")
                .contains("java.lang.String")
                .contains("branch 'fan/0'");
        assertThat(wf.run("can-wrong~2")).isEmpty();
    }

    @Test
    void aSuccessorIdTakenByAnotherRunFailsTheRunAndNamesIt() {
        Workflow<Integer, String> once =
                Workflow.define("tck.can.once", Integer.class, (ctx, n) -> n == 1 ? ctx.continueAsNew(2) : "second");
        worldflow(once, counter);
        wf.start(counter, new int[] {1, 0, 1}, StartOptions.id("can-taken~2")).result(WAIT);

        assertThatThrownBy(() -> wf.start(once, 1, StartOptions.id("can-taken")).result(WAIT))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("can-taken~2")
                .hasMessageContaining("tck.can.counter");
        assertThat(wf.run("can-taken~2").orElseThrow().workflow()).isEqualTo("tck.can.counter");
    }

    @Test
    void aRunWhoseCodeCatchesTheContinuationStillContinuesAsNew() {
        Workflow<Integer, String> careless = Workflow.define("tck.can.careless", Integer.class, (ctx, n) -> {
            if (n > 1) {
                return "round " + n;
            }
            try {
                return ctx.continueAsNew(n + 1);
            } catch (Throwable everything) {
                // a catch-all around the call: what continueAsNew throws to unwind the code is caught too
                return "swallowed";
            }
        });
        worldflow(careless);

        assertThat(wf.start(careless, 1, StartOptions.id("can-careless")).result(WAIT))
                .isEqualTo("round 2");
        assertThat(wf.run("can-careless").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(wf.run("can-careless~2").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(eventsOf("can-careless", WorkflowContinuedAsNew.class)).hasSize(1);
    }
}
