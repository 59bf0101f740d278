package io.worldflow.tck;

import io.worldflow.CanceledException;
import io.worldflow.ChildOptions;
import io.worldflow.ParentClosePolicy;
import io.worldflow.RunFinishedException;
import io.worldflow.RunHandle;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.Saga;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.event.ScopeStarted;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.runtime.WorkerOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Cancellation as a scope: cleanup in a detached scope still runs its recorded steps after the run is canceled, a
 * running step is interrupted and sees it, branches are reached, and a saga compensates a canceled run.
 */
public abstract class CancellationContract extends WorkflowContractSupport {

    protected CancellationContract(WorldConformanceKit kit) {
        super(kit);
    }

    @Override
    protected WorkerOptions workerOptions() {
        return super.workerOptions().withHoldRetry(Duration.ofMinutes(1));
    }

    /**
     * The turn after a cancel replays an async block whose outcome the history holds: waiting for it returns that
     * outcome, as it did, rather than the cancellation, which the code meets where it waits next.
     */
    @Test
    void aCancelAfterAnAsyncBlockEndedReachesTheCodeWhereItWaitsNotTheReplayedBlock() {
        Workflow<String, String> w = Workflow.define("tck.cancel.after-async", String.class, (ctx, in) -> {
            int got = ctx.async("fetch", scope -> scope.step("inner", () -> bump("inner")))
                    .get();
            try {
                ctx.sleep("hold", Duration.ofDays(1));
                return "kept " + got;
            } catch (CanceledException e) {
                ctx.detached("cleanup", c -> c.step("release", () -> bump("release after " + got)));
                throw e;
            }
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x", StartOptions.id("cancel-after-async"));
        awaitStatus("cancel-after-async", RunStatus.SLEEPING);

        wf.cancel("cancel-after-async", "no longer needed");

        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("inner")).isEqualTo(1);
        assertThat(count("release after 1")).isEqualTo(1);
    }

    @Test
    void cleanupInADetachedScopeRunsItsStepsAfterTheRunIsCanceled() {
        Workflow<String, String> reserve = Workflow.define("tck.cancel.reserve", String.class, (ctx, in) -> {
            ctx.step("reserve", () -> "r" + bump("reserve"));
            try {
                ctx.sleep("hold", Duration.ofDays(1));
                return "kept";
            } catch (CanceledException e) {
                ctx.detached("cleanup", c -> {
                    c.step("release", () -> "released " + bump("release"));
                    c.sleep("grace", Duration.ofMinutes(1));
                    return c.step("notify", () -> "told " + bump("notify"));
                });
                throw e;
            }
        });
        worldflow(reserve);
        RunHandle<String> run = wf.start(reserve, "x", StartOptions.id("cancel-cleanup"));
        awaitStatus("cancel-cleanup", RunStatus.SLEEPING);

        wf.cancel("cancel-cleanup", "customer changed their mind");
        // the cleanup's own timer holds the run, canceled as it is, until it fires
        awaitRun(
                "cancel-cleanup",
                "released and sleeping its grace",
                r -> r.status() == RunStatus.SLEEPING
                        && eventsOf(r.runId(), TimerScheduled.class).stream()
                                .anyMatch(t -> t.timerId().equals("cleanup/grace")));
        assertThat(count("release")).isEqualTo(1);
        assertThat(run.status()).isNotIn(terminal());
        clock.advance(Duration.ofMinutes(1));

        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("release")).isEqualTo(1);
        assertThat(count("notify")).isEqualTo(1);
        assertThat(eventsOf("cancel-cleanup", ScopeStarted.class))
                .singleElement()
                .satisfies(s -> assertThat(s.detached()).isEqualTo(1));
        assertThat(eventsOf("cancel-cleanup", StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactly("reserve", "cleanup/release", "cleanup/notify");
    }

    @Test
    void aCancelInterruptsARunningStepWhichSeesIt() {
        Workflow<String, String> slow = Workflow.define(
                "tck.cancel.slow",
                String.class,
                (ctx, in) -> ctx.step("crunch", () -> {
                    bump("crunch started");
                    try {
                        Thread.sleep(WAIT.toMillis() * 3);
                        return "done";
                    } catch (InterruptedException e) {
                        bump("crunch interrupted");
                        throw e;
                    }
                }));
        worldflow(slow);
        RunHandle<String> run = wf.start(slow, "x", StartOptions.id("cancel-step"));
        awaitRun("cancel-step", "crunching", r -> count("crunch started") == 1);

        wf.cancel("cancel-step");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("crunch interrupted")).isEqualTo(1);
        assertThat(eventsOf("cancel-step", StepCompleted.class)).isEmpty();
        assertThat(types("cancel-step")).doesNotContain("StepFailed", "StepRetrying");
    }

    // ---------------------------------------------------------------- termination

    /** A step that runs until interrupted, then a cleanup that termination must never reach. */
    private Workflow<String, String> guarded(String name) {
        return Workflow.define(name, String.class, (ctx, in) -> {
            try {
                String got = ctx.step("crunch", () -> {
                    bump(in + " crunch started");
                    try {
                        Thread.sleep(WAIT.toMillis() * 3);
                        return "done";
                    } catch (InterruptedException e) {
                        bump(in + " crunch interrupted");
                        throw e;
                    }
                });
                ctx.sleep("rest", Duration.ofDays(1));
                return got + ctx.step("after", () -> bump(in + " after"));
            } catch (CanceledException e) {
                ctx.detached("cleanup", c -> c.step("release", () -> bump(in + " cleanup")));
                throw e;
            }
        });
    }

    @Test
    void aTerminatedRunEndsWithoutItsCleanupAndItsRunningStepIsInterrupted() {
        Workflow<String, String> wfl = guarded("tck.terminate.step");
        worldflow(wfl);
        RunHandle<String> run = wf.start(wfl, "t", StartOptions.id("terminate-step"));
        awaitRun("terminate-step", "crunching", r -> count("t crunch started") == 1);

        wf.terminate("terminate-step", "operator stopped it");

        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        awaitRun("terminate-step", "interrupted", r -> count("t crunch interrupted") == 1);
        assertThat(count("t cleanup")).isZero();
        assertThat(eventsOf("terminate-step", WorkflowCancelRequested.class))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.terminate()).isTrue();
                    assertThat(e.reason()).isEqualTo("operator stopped it");
                });
        assertThat(types("terminate-step")).doesNotContain("StepCompleted", "StepFailed", "ScopeStarted");
    }

    @Test
    void aSleepingRunTerminatedEndsAtOnceWithoutRunningItsCode() {
        Workflow<String, String> wfl = Workflow.define("tck.terminate.sleeping", String.class, (ctx, in) -> {
            ctx.step("before", () -> bump("before"));
            try {
                ctx.sleep("rest", Duration.ofDays(1));
                return ctx.step("after", () -> "after " + bump("after"));
            } catch (CanceledException e) {
                ctx.detached("cleanup", c -> c.step("release", () -> bump("sleeper cleanup")));
                throw e;
            }
        });
        worldflow(wfl);
        RunHandle<String> run = wf.start(wfl, "s", StartOptions.id("terminate-sleeping"));
        awaitStatus("terminate-sleeping", RunStatus.SLEEPING);

        wf.terminate("terminate-sleeping", null);

        // no clock moves: the termination makes the run due at once, and its turn ends it without its code
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("before")).isEqualTo(1);
        assertThat(count("sleeper cleanup")).isZero();
        assertThat(count("after")).isZero();
        assertThat(types("terminate-sleeping"))
                .containsExactly(
                        "WorkflowStarted",
                        "StepScheduled",
                        "StepStarted",
                        "StepCompleted",
                        "TimerScheduled",
                        "WorkflowCancelRequested",
                        "WorkflowCanceled");
    }

    @Test
    void aRunWhoseStartIsDelayedEndsAtOnceWhenTerminatedAndItsCodeNeverRuns() {
        Workflow<String, String> later = Workflow.define("tck.terminate.later", String.class, (ctx, in) -> {
            bump("later ran");
            return in;
        });
        worldflow(later);
        RunHandle<String> run =
                wf.start(later, "l", StartOptions.id("terminate-later").withDelay(Duration.ofDays(1)));
        assertThat(run.status()).isEqualTo(RunStatus.PENDING);

        wf.terminate("terminate-later", "not needed after all");

        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("later ran")).isZero();
        assertThat(types("terminate-later"))
                .containsExactly("WorkflowStarted", "WorkflowCancelRequested", "WorkflowCanceled");
    }

    @Test
    void aTerminationAskedForElsewhereStopsTheTurnAtItsNextWrite() throws Exception {
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Workflow<String, String> wfl = Workflow.define("tck.terminate.elsewhere", String.class, (ctx, in) -> {
            try {
                String first = ctx.step("first", () -> {
                    bump("first started");
                    go.await();
                    return "1";
                });
                return first + ctx.step("second", () -> "2" + bump("second"));
            } catch (CanceledException e) {
                ctx.detached("cleanup", c -> c.step("release", () -> bump("elsewhere cleanup")));
                throw e;
            }
        });
        worldflow(wfl);
        RunHandle<String> run = wf.start(wfl, "e", StartOptions.id("terminate-elsewhere"));
        awaitRun("terminate-elsewhere", "first running", r -> count("first started") == 1);

        // asked of the world directly, as another process would: this worker hears of it at the step's append
        world.eventLog().requestCancel("terminate-elsewhere", "from another process", true);
        go.countDown();

        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("second")).isZero();
        assertThat(count("elsewhere cleanup")).isZero();
        assertThat(eventsOf("terminate-elsewhere", WorkflowCancelRequested.class))
                .singleElement()
                .satisfies(e -> assertThat(e.terminate()).isTrue());
    }

    @Test
    void aParentThatEndsTerminatesTheChildrenWhosePolicySaysSoAndAsksTheOthersToCancel() {
        Workflow<String, String> child = Workflow.define("tck.terminate.child", String.class, (ctx, in) -> {
            try {
                ctx.sleep("nap", Duration.ofDays(1));
                return in;
            } catch (CanceledException e) {
                ctx.detached("cleanup", c -> c.step("release", () -> bump("cleanup " + in)));
                throw e;
            }
        });
        Workflow<String, String> parent = Workflow.define("tck.terminate.parent", String.class, (ctx, in) -> {
            ctx.childAsync(
                    "ended",
                    child,
                    "ended",
                    ChildOptions.defaults().withParentClosePolicy(ParentClosePolicy.TERMINATE));
            ctx.childAsync("asked", child, "asked");
            return "parent done";
        });
        worldflow(parent, child);
        RunHandle<String> run = wf.start(parent, "x", StartOptions.id("terminator"));

        assertThat(run.result(WAIT)).isEqualTo("parent done");
        awaitStatus("terminator/ended", RunStatus.CANCELED);
        awaitStatus("terminator/asked", RunStatus.CANCELED);
        assertThat(count("cleanup asked")).isEqualTo(1);
        assertThat(count("cleanup ended")).isZero();
        assertThat(eventsOf("terminator/ended", WorkflowCancelRequested.class))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.terminate()).isTrue();
                    assertThat(e.reason()).isEqualTo("parent run 'terminator' ended");
                });
        assertThat(eventsOf("terminator/asked", WorkflowCancelRequested.class))
                .singleElement()
                .satisfies(e -> assertThat(e.terminate()).isFalse());
    }

    @Test
    void terminatingAnUnknownOrFinishedRunIsAClearErrorThatChangesNothing() {
        Workflow<String, String> quick = Workflow.define("tck.terminate.quick", String.class, (ctx, in) -> in);
        worldflow(quick);
        assertThat(wf.start(quick, "q", StartOptions.id("terminate-done")).result(WAIT))
                .isEqualTo("q");

        assertThatThrownBy(() -> wf.terminate("terminate-ghost", "x")).isInstanceOf(RunNotFoundException.class);
        assertThatThrownBy(() -> wf.terminate("terminate-done", "x"))
                .isInstanceOf(RunFinishedException.class)
                .hasMessageContaining("terminate");
        assertThatThrownBy(() -> wf.terminate("terminate-done", "x".repeat(1001)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000");
        assertThat(wf.run("terminate-done").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(types("terminate-done")).containsExactly("WorkflowStarted", "WorkflowCompleted");
    }

    @Test
    void aCancelReachesEveryBranchAndEachMayCleanUp() {
        Workflow<String, List<String>> fan = Workflow.define(
                "tck.cancel.fan",
                String.class,
                (ctx, in) -> ctx.parallel("legs", List.of("a", "b"), (branch, leg) -> {
                    try {
                        branch.sleep("wait", Duration.ofDays(1));
                        return leg;
                    } catch (CanceledException e) {
                        branch.detached("undo", c -> c.step("undo", () -> bump("undo " + leg)));
                        throw e;
                    }
                }));
        worldflow(fan);
        RunHandle<List<String>> run = wf.start(fan, "x", StartOptions.id("cancel-fan"));
        awaitStatus("cancel-fan", RunStatus.SLEEPING);

        wf.cancel("cancel-fan");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("undo a")).isEqualTo(1);
        assertThat(count("undo b")).isEqualTo(1);
        assertThat(eventsOf("cancel-fan", StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactlyInAnyOrder("legs/0/undo/undo", "legs/1/undo/undo");
    }

    @Test
    void aSagaCompensatesARunThatIsCanceled() {
        Workflow<String, String> trip = Workflow.define("tck.cancel.trip", String.class, (ctx, in) -> {
            Saga saga = new Saga(ctx);
            try {
                ctx.step("flight", () -> "f" + bump("flight"));
                saga.addCompensation("flight", () -> bump("cancel flight"));
                ctx.step("hotel", () -> "h" + bump("hotel"));
                saga.addCompensation("hotel", () -> bump("cancel hotel"));
                ctx.awaitSignal("confirm", String.class);
                return "booked";
            } catch (CanceledException e) {
                throw saga.compensate(e);
            }
        });
        worldflow(trip);
        RunHandle<String> run = wf.start(trip, "x", StartOptions.id("cancel-saga"));
        awaitStatus("cancel-saga", RunStatus.WAITING);

        wf.cancel("cancel-saga");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(count("cancel hotel")).isEqualTo(1);
        assertThat(count("cancel flight")).isEqualTo(1);
        assertThat(eventsOf("cancel-saga", StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactly("flight", "hotel", "compensate/compensate-hotel", "compensate/compensate-flight");
    }

    @Test
    void changingADetachedScopeToAnAsyncOneHoldsTheRun() {
        Workflow<String, String> v1 = Workflow.define("tck.cancel.changed", String.class, (ctx, in) -> {
            String a = ctx.detached("part", c -> c.step("a", () -> "a"));
            ctx.sleep("nap", Duration.ofHours(1));
            return a;
        });
        Workflow<String, String> v2 = Workflow.define("tck.cancel.changed", String.class, (ctx, in) -> {
            String a = ctx.async("part", c -> c.step("a", () -> "a")).get();
            ctx.sleep("nap", Duration.ofHours(1));
            return a;
        });
        worldflow(v1);
        RunHandle<String> run = wf.start(v1, "x", StartOptions.id("cancel-changed"));
        awaitStatus("cancel-changed", RunStatus.SLEEPING);

        restart(v2);
        clock.advance(Duration.ofHours(1));
        assertThat(awaitRun("cancel-changed", "held", r -> r.isHeld()).held().message())
                .contains("scope 'part'");
        restart(v1);
        clock.advance(Duration.ofMinutes(1));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("a");
    }
}
