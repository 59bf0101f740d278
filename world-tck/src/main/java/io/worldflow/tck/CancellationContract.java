package io.worldflow.tck;

import io.worldflow.CanceledException;
import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Saga;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.event.ScopeStarted;
import io.worldflow.event.StepCompleted;
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
        awaitRun("cancel-cleanup", "released", r -> count("release") == 1 && r.status() == RunStatus.SLEEPING);
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
