package io.worldflow.tck;

import io.worldflow.ChildOptions;
import io.worldflow.ChildWorkflowFailedException;
import io.worldflow.DurableFuture;
import io.worldflow.NonRetryableException;
import io.worldflow.ParentClosePolicy;
import io.worldflow.RetryPolicy;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.WorldflowException;
import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.Append;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Child runs end to end: a parent starts runs of other workflows and waits for them holding no thread, hears of
 * their end exactly once, finds the same child on replay, and cancels or abandons its children when it ends first.
 */
public abstract class ChildWorkflowContract extends WorkflowContractSupport {

    protected ChildWorkflowContract(WorldConformanceKit kit) {
        super(kit);
    }

    @Override
    protected WorkerOptions workerOptions() {
        return super.workerOptions().withHoldRetry(Duration.ofMinutes(1));
    }

    private final Workflow<Integer, Integer> square = Workflow.define(
            "tck.child.square",
            Integer.class,
            Integer.class,
            (ctx, n) -> ctx.step("square", () -> {
                bump("square " + n);
                return n * n;
            }));

    private final Workflow<String, String> napper = Workflow.define("tck.child.napper", String.class, (ctx, in) -> {
        ctx.sleep("nap", Duration.ofHours(1));
        return ctx.step("wake", () -> in + " woke" + bump("woke " + in));
    });

    @Test
    void aChildsResultReturnsToItsParentAndBothLogsTellOfIt() {
        Workflow<Integer, Integer> parent = Workflow.define("tck.child.sum", Integer.class, Integer.class, (ctx, n) -> {
            int a = ctx.child("first", square, n);
            int b = ctx.child("second", square, n + 1);
            return a + b;
        });
        worldflow(parent, square);
        RunHandle<Integer> run = wf.start(parent, 3, StartOptions.id("sum-1"));

        assertThat(run.result(WAIT)).isEqualTo(9 + 16);
        List<ChildWorkflowStarted> started = eventsOf("sum-1", ChildWorkflowStarted.class);
        assertThat(started).extracting(ChildWorkflowStarted::childRunId).containsExactly("sum-1/first", "sum-1/second");
        assertThat(started).extracting(ChildWorkflowStarted::workflow).containsOnly("tck.child.square");
        assertThat(eventsOf("sum-1", ChildWorkflowCompleted.class)).hasSize(2);
        WorkflowStarted child =
                (WorkflowStarted) world.eventLog().read("sum-1/first", 0).getFirst();
        assertThat(child.parent()).isEqualTo("sum-1");
        assertThat(awaitStatus("sum-1/second", RunStatus.COMPLETED).output().json())
                .isEqualTo("16");
        assertThat(count("square 3") + count("square 4")).isEqualTo(2);
        assertThat(wf.runs(RunQuery.all().withParent("sum-1")).runs())
                .extracting(RunInfo::runId)
                .containsExactlyInAnyOrder("sum-1/first", "sum-1/second");
        assertThat(wf.run("sum-1/first").orElseThrow().parent()).isEqualTo("sum-1");
    }

    @Test
    void aParentWaitsForItsChildWithoutAThreadAndWakesWhenItEnds() {
        Workflow<String, String> parent =
                Workflow.define("tck.child.waiter", String.class, (ctx, in) -> "got " + ctx.child("nap", napper, in));
        worldflow(parent, napper);
        RunHandle<String> run = wf.start(parent, "p", StartOptions.id("waiter-1"));
        awaitStatus("waiter-1/nap", RunStatus.SLEEPING);
        awaitStatus("waiter-1", RunStatus.WAITING);

        clock.advance(Duration.ofHours(1));
        assertThat(run.result(WAIT)).isEqualTo("got p woke1");
        assertThat(eventsOf("waiter-1", ChildWorkflowCompleted.class))
                .singleElement()
                .satisfies(c -> assertThat(c.childRunId()).isEqualTo("waiter-1/nap"));
    }

    /**
     * Children that their parent's worker runs begin there with the write that starts them, where the world leases
     * starts: nobody asks for their first turn, which is nobody else's to take. Elsewhere they are leased like any other
     * turn. The parent's step keeps it busy until its children have run, so that it lends them no slot meanwhile.
     */
    @Test
    void childrenBeginOnTheirParentsWorkerWithTheWriteThatStartsThem() {
        Workflow<Integer, Integer> parent =
                Workflow.define("tck.child.begun", Integer.class, Integer.class, (ctx, n) -> {
                    List<DurableFuture<Integer>> kids = new ArrayList<>();
                    for (int i = 1; i <= 3; i++) {
                        kids.add(ctx.childAsync("kid-" + i, square, i));
                    }
                    ctx.step("meanwhile", () -> {
                        long end = System.nanoTime() + WAIT.toNanos();
                        while (count("square 1") + count("square 2") + count("square 3") < 3
                                && System.nanoTime() < end) {
                            pause(5);
                        }
                        return "children ran";
                    });
                    return kids.stream().mapToInt(DurableFuture::get).sum();
                });
        boolean leasesStarts = kit().leasesAtCreation();
        LeaseWatch watch = new LeaseWatch(world);
        wf = Worldflow.builder()
                .world(watch)
                .clock(clock)
                .register(parent)
                .register(square)
                .build();
        // where starts are leased, the worker asks for due turns only when told of some, never just in case
        wf.startWorker(leasesStarts ? workerOptions().withPollInterval(Duration.ofMinutes(1)) : workerOptions());

        RunHandle<Integer> run = wf.start(parent, 0, StartOptions.id("begun-1"));

        assertThat(run.result(WAIT)).isEqualTo(1 + 4 + 9);
        Set<String> kids = Set.of("begun-1/kid-1", "begun-1/kid-2", "begun-1/kid-3");
        if (leasesStarts) {
            assertThat(watch.leasedAsStarted()).containsExactlyInAnyOrderElementsOf(kids);
            assertThat(watch.leasedByAsking()).doesNotContainAnyElementsOf(kids);
        } else {
            assertThat(watch.leasedAsStarted()).isEmpty();
            assertThat(watch.leasedByAsking()).containsAll(kids);
        }
    }

    /**
     * Children that branches start side by side are created together, by the one append the parent makes when its
     * branches all wait for them, not one append for the first and another for the rest: on every world that append
     * creates all of them in its transaction, and each child is created once.
     */
    @Test
    void childrenThatBranchesStartSideBySideAreCreatedByOneAppend() {
        Workflow<Integer, Integer> parent =
                Workflow.define("tck.child.side", Integer.class, Integer.class, (ctx, n) -> {
                    List<Integer> items = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        items.add(i);
                    }
                    return ctx.parallel("kids", items, (branch, i) -> branch.child("kid", square, i)).stream()
                            .mapToInt(Integer::intValue)
                            .sum();
                });
        List<List<String>> startsOfParent = new CopyOnWriteArrayList<>();
        wf = Worldflow.builder()
                .world(watchingStarts(world, "side-1", startsOfParent))
                .clock(clock)
                .register(parent)
                .register(square)
                .build();
        wf.startWorker(workerOptions());

        assertThat(wf.start(parent, 8, StartOptions.id("side-1")).result(WAIT)).isEqualTo(204);
        assertThat(startsOfParent).as("the parent's appends that create runs").hasSize(1);
        assertThat(startsOfParent.getFirst())
                .containsExactlyInAnyOrder(
                        "side-1/kids/0/kid",
                        "side-1/kids/1/kid",
                        "side-1/kids/2/kid",
                        "side-1/kids/3/kid",
                        "side-1/kids/4/kid",
                        "side-1/kids/5/kid",
                        "side-1/kids/6/kid",
                        "side-1/kids/7/kid");
        assertThat(eventsOf("side-1", ChildWorkflowStarted.class)).hasSize(8);
    }

    /**
     * {@code world}, noting the runs that each append of run {@code runId} creates, whether the append goes through its
     * event log or, leasing them, through its worker access; closing it leaves the world open.
     */
    private static World watchingStarts(World world, String runId, List<List<String>> starts) {
        Consumer<List<Append>> watch = appends -> appends.stream()
                .filter(a -> a.runId().equals(runId) && !a.starts().isEmpty())
                .forEach(a -> starts.add(a.starts().stream().map(NewRun::runId).toList()));
        EventLog watchedLog = WorldParts.watched(EventLog.class, world.eventLog(), (method, args) -> {
            if (method.getName().equals("append")) {
                @SuppressWarnings("unchecked")
                List<Append> appends = (List<Append>) args[0];
                watch.accept(appends);
            }
        });
        WorkerAccess watchedAccess = new ForwardingWorkerAccess(world.workerAccess()) {
            @Override
            public LeasedAppends appendLeasingStarts(
                    List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
                watch.accept(appends);
                return super.appendLeasingStarts(appends, startsToLease, workerId, leaseFor);
            }
        };
        return WorldParts.with(world, Map.of("eventLog", watchedLog, "workerAccess", watchedAccess));
    }

    /**
     * A worker whose every slot holds a parent waiting in memory for its child: the parents lend the children their
     * slots, rather than keeping them waiting until the parents leave memory (a minute here).
     */
    @Test
    void parentsWaitingForTheirChildrenLendThemTheirSlots() {
        Workflow<Integer, Integer> parent = Workflow.define(
                "tck.child.lender", Integer.class, Integer.class, (ctx, n) -> ctx.child("square", square, n) + 1);
        wf = Worldflow.builder()
                .world(world)
                .clock(clock)
                .register(parent)
                .register(square)
                .build();
        wf.startWorker(workerOptions().withConcurrency(2).withStickyWait(Duration.ofMinutes(1)));

        RunHandle<Integer> first = wf.start(parent, 3, StartOptions.id("lender-1"));
        RunHandle<Integer> second = wf.start(parent, 4, StartOptions.id("lender-2"));

        assertThat(first.result(WAIT)).isEqualTo(10);
        assertThat(second.result(WAIT)).isEqualTo(17);
        assertThat(count("square 3") + count("square 4")).isEqualTo(2);
    }

    @Test
    void aChildOfAWorkflowThisProcessDoesNotRegisterFailsAtTheCallAndStartsNothing() {
        Workflow<Integer, Integer> unregistered =
                Workflow.define("tck.child.unregistered", Integer.class, Integer.class, (ctx, n) -> n);
        Workflow<Integer, Integer> parent = Workflow.define(
                "tck.child.orphan", Integer.class, Integer.class, (ctx, n) -> ctx.child("lost", unregistered, n));
        worldflow(parent);
        wf.start(parent, 1, StartOptions.id("orphan-1"));

        assertThat(awaitStatus("orphan-1", RunStatus.FAILED).error().message())
                .contains("child 'lost' of run 'orphan-1'", "'tck.child.unregistered' is not registered");
        assertThat(wf.run("orphan-1/lost")).isEmpty();
        assertThat(eventsOf("orphan-1", ChildWorkflowStarted.class)).isEmpty();
    }

    /** On a queue this worker does not serve, the workflow may be another worker's: the child starts and waits there. */
    @Test
    void aChildOfAWorkflowRegisteredElsewhereStartsOnAQueueOtherWorkersServe() {
        Workflow<Integer, Integer> elsewhere =
                Workflow.define("tck.child.elsewhere", Integer.class, Integer.class, (ctx, n) -> n);
        Workflow<Integer, Integer> parent = Workflow.define(
                "tck.child.sender",
                Integer.class,
                Integer.class,
                (ctx, n) -> ctx.child(
                        "remote", elsewhere, n, ChildOptions.defaults().withQueue("gpu")));
        worldflow(parent);
        wf.start(parent, 1, StartOptions.id("sender-1"));

        awaitStatus("sender-1", RunStatus.WAITING);
        assertThat(awaitStatus("sender-1/remote", RunStatus.PENDING).queue()).isEqualTo("gpu");
    }

    @Test
    void aFailedChildIsATypedFailureTheParentMayCatch() {
        Workflow<String, String> failing = Workflow.define("tck.child.failing", String.class, (ctx, in) -> {
            throw new IllegalStateException("out of stock: " + in);
        });
        Workflow<String, String> parent = Workflow.define("tck.child.catcher", String.class, (ctx, in) -> {
            try {
                return ctx.child("order", failing, in);
            } catch (ChildWorkflowFailedException e) {
                return "caught " + e.error().type() + " / " + e.error().message() + " / " + e.isCanceled() + " / "
                        + e.childRunId();
            }
        });
        worldflow(parent, failing);
        RunHandle<String> run = wf.start(parent, "socks", StartOptions.id("catcher-1"));

        assertThat(run.result(WAIT))
                .isEqualTo("caught java.lang.IllegalStateException / out of stock: socks / false / catcher-1/order");
        assertThat(eventsOf("catcher-1", ChildWorkflowFailed.class)).hasSize(1);
        assertThat(awaitStatus("catcher-1/order", RunStatus.FAILED).error().message())
                .isEqualTo("out of stock: socks");
    }

    @Test
    void aChildCanceledOnItsOwnIsATypedCancellationInTheParent() {
        Workflow<String, String> parent = Workflow.define("tck.child.canceledkid", String.class, (ctx, in) -> {
            try {
                return ctx.child("nap", napper, in);
            } catch (ChildWorkflowFailedException e) {
                return "child canceled: " + e.isCanceled();
            }
        });
        worldflow(parent, napper);
        RunHandle<String> run = wf.start(parent, "p", StartOptions.id("canceledkid-1"));
        awaitStatus("canceledkid-1/nap", RunStatus.SLEEPING);

        wf.cancel("canceledkid-1/nap", "not needed");
        assertThat(run.result(WAIT)).isEqualTo("child canceled: true");
        assertThat(eventsOf("canceledkid-1", ChildWorkflowCanceled.class)).hasSize(1);
        assertThat(count("woke p")).isZero();
    }

    @Test
    void aParentThatEndsAsksItsChildrenToCancelUnlessItAbandonsThem() {
        Workflow<String, List<String>> parent = Workflow.define(
                "tck.child.family",
                String.class,
                (ctx, in) -> ctx.parallel(
                        "kids",
                        List.of("kept", "dropped"),
                        (branch, kid) -> branch.child(
                                kid,
                                napper,
                                kid,
                                ChildOptions.defaults()
                                        .withParentClosePolicy(
                                                kid.equals("kept")
                                                        ? ParentClosePolicy.ABANDON
                                                        : ParentClosePolicy.REQUEST_CANCEL))));
        worldflow(parent, napper);
        RunHandle<List<String>> run = wf.start(parent, "p", StartOptions.id("family-1"));
        String kept = "family-1/kids/0/kept";
        String dropped = "family-1/kids/1/dropped";
        awaitStatus(kept, RunStatus.SLEEPING);
        awaitStatus(dropped, RunStatus.SLEEPING);
        awaitStatus("family-1", RunStatus.WAITING);

        wf.cancel("family-1", "order withdrawn");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        RunInfo canceled = awaitStatus(dropped, RunStatus.CANCELED);
        assertThat(canceled.status()).isEqualTo(RunStatus.CANCELED);
        assertThat(wf.run(kept).orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);

        clock.advance(Duration.ofHours(1));
        assertThat(wf.handle(kept, String.class).result(WAIT)).isEqualTo("kept woke1");
        assertThat(count("woke dropped")).isZero();
    }

    @Test
    void aChildStartedBeforeItsParentRecordedItIsFoundNotStartedAgain() {
        Workflow<String, String> parent =
                Workflow.define("tck.child.adopter", String.class, (ctx, in) -> "got " + ctx.child("nap", napper, in));
        worldflow(parent, napper);
        // as if the parent's worker died between creating the child and recording it
        world.eventLog()
                .create(new NewRun(
                        "adopter-1/nap",
                        "tck.child.napper",
                        wf.codec().encode("p", "input"),
                        clock.instant(),
                        clock.instant(),
                        null,
                        StartOptions.DEFAULT_QUEUE,
                        0,
                        "adopter-1"));
        RunHandle<String> run = wf.start(parent, "p", StartOptions.id("adopter-1"));
        awaitStatus("adopter-1", RunStatus.WAITING);

        clock.advance(Duration.ofHours(1));
        assertThat(run.result(WAIT)).isEqualTo("got p woke1");
        assertThat(wf.runs(RunQuery.all().withWorkflow("tck.child.napper")).runs())
                .hasSize(1);
        assertThat(count("woke p")).isEqualTo(1);
    }

    @Test
    void aParentRestartedWhileItsChildRunsHearsOfItsEndOnce() {
        Workflow<String, String> parent = Workflow.define("tck.child.restarted", String.class, (ctx, in) -> {
            String before = ctx.step("before", () -> "b" + bump("before"));
            String kid = ctx.child("nap", napper, in);
            return before + " " + kid + " " + ctx.step("after", () -> "a" + bump("after"));
        });
        worldflow(parent, napper);
        RunHandle<String> run = wf.start(parent, "p", StartOptions.id("restarted-1"));
        awaitStatus("restarted-1", RunStatus.WAITING);

        restart(parent, napper);
        clock.advance(Duration.ofHours(1));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("b1 p woke1 a1");
        assertThat(eventsOf("restarted-1", ChildWorkflowStarted.class)).hasSize(1);
        assertThat(eventsOf("restarted-1", ChildWorkflowCompleted.class)).hasSize(1);
        assertThat(world.signals().pending("restarted-1")).isEmpty();
    }

    @Test
    void aChildIdTakenByARunOfAnotherWorkflowIsAClearErrorNamingBoth() {
        Workflow<String, String> parent = Workflow.define("tck.child.clash", String.class, (ctx, in) -> {
            try {
                return ctx.child("nap", napper, in, ChildOptions.defaults().withId("taken-1"));
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        });
        worldflow(parent, napper, square);
        wf.start(square, 2, StartOptions.id("taken-1")).result(WAIT);

        String message = wf.start(parent, "p").result(WAIT);
        assertThat(message).contains("taken-1").contains("tck.child.square").contains("tck.child.napper");
        assertThat(wf.runs(RunQuery.all().withWorkflow("tck.child.napper")).runs())
                .isEmpty();
    }

    @Test
    void twoChildCallsOfOneRunGivenOneIdAreRefusedRatherThanLeftWaiting() {
        Workflow<Integer, List<String>> parent = Workflow.define("tck.child.sameid", Integer.class, (ctx, n) -> {
            List<String> out = new java.util.ArrayList<>(ctx.parallel(
                    "ship",
                    List.of(1, 2, 3),
                    (branch, i) -> attempt(() -> branch.child(
                            "kid", square, i, ChildOptions.defaults().withId("same-" + n)))));
            out.add(attempt(
                    () -> ctx.child("again", square, 9, ChildOptions.defaults().withId("same-" + n))));
            return out;
        });
        worldflow(parent, square);

        List<String> out = wf.handle(wf.start(parent, 7).id(), List.class).result(WAIT);
        // one branch started the child and got its square; the other two calls, and the later one, were refused
        assertThat(out).hasSize(4);
        assertThat(out.subList(0, 3)).filteredOn(s -> s.startsWith("ok ")).hasSize(1);
        assertThat(out.subList(0, 3))
                .filteredOn(s -> s.startsWith("refused: "))
                .hasSize(2)
                .allSatisfy(s -> assertThat(s).contains("run id 'same-7' is the child that 'ship/"));
        assertThat(out.get(3))
                .startsWith("refused: child 'again' of run ")
                .contains("run id 'same-7' is the child that 'ship/")
                .contains("give each child call an id of its own");
        assertThat(wf.runs(RunQuery.all().withWorkflow("tck.child.square")).runs())
                .hasSize(1);
    }

    private static String attempt(java.util.function.Supplier<Integer> child) {
        try {
            return "ok " + child.get();
        } catch (WorldflowException e) {
            return "refused: " + e.getMessage();
        }
    }

    @Test
    void changingWhichWorkflowAChildRunsHoldsTheParent() {
        Workflow<String, String> v1 =
                Workflow.define("tck.child.changed", String.class, (ctx, in) -> "got " + ctx.child("kid", napper, in));
        Workflow<String, String> v2 =
                Workflow.define("tck.child.changed", String.class, (ctx, in) -> "got " + ctx.child("kid", square, 2));
        worldflow(v1, napper);
        RunHandle<String> run = wf.start(v1, "p", StartOptions.id("changed-1"));
        awaitStatus("changed-1", RunStatus.WAITING);

        restart(v2, napper, square);
        clock.advance(Duration.ofHours(1));
        RunInfo held = awaitRun("changed-1", "held", RunInfo::isHeld);
        assertThat(held.held().message()).contains("tck.child.napper").contains("tck.child.square");
        assertThat(held.status()).isNotIn(RunStatus.COMPLETED, RunStatus.FAILED);

        restart(v1, napper);
        clock.advance(Duration.ofMinutes(1));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("got p woke1");
    }

    @Test
    void aClientCannotSendTheSignalThatCarriesAChildsEnd() {
        worldflow(napper);
        RunHandle<String> run = wf.start(napper, "p");
        awaitStatus(run.id(), RunStatus.SLEEPING);

        assertThatThrownBy(() -> wf.signal(run.id(), "@child:x", "forged"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@child:x");
        assertThat(world.signals().pending(run.id())).isEmpty();
    }

    private final Workflow<String, String> flaky = Workflow.define("tck.child.flaky", String.class, (ctx, in) -> {
        int n = ctx.step("try", () -> bump("flaky " + in));
        if (in.startsWith("never")) {
            throw new NonRetryableException("no use trying " + in + " again");
        }
        if (n < 3) {
            throw new IllegalStateException("not yet: attempt " + n);
        }
        return in + " ok at " + n;
    });

    @Test
    void aFailedChildIsTriedAgainAsARunOfItsOwnAfterThePoliciesPause() {
        Workflow<String, String> parent = Workflow.define(
                "tck.child.retrier",
                String.class,
                (ctx, in) -> ctx.child(
                        "flaky",
                        flaky,
                        in,
                        ChildOptions.defaults().withRetry(RetryPolicy.fixed(3, Duration.ofSeconds(5)))));
        worldflow(parent, flaky);
        RunHandle<String> run = wf.start(parent, "x", StartOptions.id("retrier-1"));
        for (String attempt : List.of("retrier-1/flaky", "retrier-1/flaky-retry-2")) {
            awaitStatus(attempt, RunStatus.FAILED);
            awaitRun("retrier-1", "pausing after " + attempt, r -> r.status() == RunStatus.SLEEPING);
            assertThat(run.status()).isNotIn(terminal());
            clock.advance(Duration.ofSeconds(5));
        }

        assertThat(run.result(WAIT)).isEqualTo("x ok at 3");
        assertThat(awaitStatus("retrier-1/flaky-retry-3", RunStatus.COMPLETED).parent())
                .isEqualTo("retrier-1");
        assertThat(eventsOf("retrier-1", ChildWorkflowFailed.class)).hasSize(2);
        assertThat(eventsOf("retrier-1", ChildWorkflowStarted.class))
                .extracting(ChildWorkflowStarted::childRunId)
                .containsExactly("retrier-1/flaky", "retrier-1/flaky-retry-2", "retrier-1/flaky-retry-3");
    }

    @Test
    void aChildFailingWithANonRetryableErrorIsNotTriedAgain() {
        Workflow<String, String> parent = Workflow.define("tck.child.giver-up", String.class, (ctx, in) -> {
            try {
                return ctx.child(
                        "flaky",
                        flaky,
                        in,
                        ChildOptions.defaults().withRetry(RetryPolicy.fixed(3, Duration.ofSeconds(5))));
            } catch (ChildWorkflowFailedException e) {
                return "gave up: " + e.error().message();
            }
        });
        worldflow(parent, flaky);

        assertThat(wf.start(parent, "never-1", StartOptions.id("giver-up-1")).result(WAIT))
                .isEqualTo("gave up: no use trying never-1 again");
        assertThat(count("flaky never-1")).isEqualTo(1);
        assertThat(wf.run("giver-up-1/flaky-retry-2")).isEmpty();
    }
}
