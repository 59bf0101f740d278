package io.worldflow.tck;

import io.worldflow.DeadlineExceededException;
import io.worldflow.RetryPolicy;
import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.StepFailedException;
import io.worldflow.StepOptions;
import io.worldflow.StepTimeoutException;
import io.worldflow.Workflow;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Steps with time limits, by the run's clock: an attempt past its timeout is interrupted and fails (retried by its
 * policy), one that stops heartbeating fails at its heartbeat timeout, a step that ignores the interrupt cannot hold
 * the run, and a run's deadline interrupts a running step.
 */
public abstract class StepTimeoutContract extends WorkflowContractSupport {

    private static final RetryPolicy TWICE = RetryPolicy.fixed(2, Duration.ofSeconds(1));

    protected StepTimeoutContract(WorldConformanceKit kit) {
        super(kit);
    }

    /** Blocks (real time) until interrupted, counting the interrupt; returns normally only when not interrupted. */
    private String hang(String name) throws InterruptedException {
        bump(name + " started");
        try {
            Thread.sleep(WAIT.toMillis() * 3);
            return "woke";
        } catch (InterruptedException e) {
            bump(name + " interrupted");
            throw e;
        }
    }

    @Test
    void anAttemptPastItsTimeoutIsInterruptedAndRetriedThenFailsWithATimeout() {
        Workflow<String, String> slow = Workflow.define("tck.timeout.slow", String.class, (ctx, in) -> {
            try {
                return ctx.step(
                        "call",
                        StepOptions.defaults()
                                .withTimeout(Duration.ofSeconds(10))
                                .withRetry(TWICE),
                        () -> hang("call"));
            } catch (StepFailedException e) {
                return "gave up: " + e.error().type() + " / " + e.error().message();
            }
        });
        worldflow(slow);
        RunHandle<String> run = wf.start(slow, "x", StartOptions.id("timeout-slow"));
        awaitRun("timeout-slow", "calling", r -> count("call started") == 1);

        clock.advance(Duration.ofSeconds(10));
        awaitRun("timeout-slow", "interrupted", r -> count("call interrupted") == 1);
        // the retry's pause counts from when it is recorded, which may come after the interrupt is seen
        awaitEvent("timeout-slow", StepRetrying.class);
        clock.advance(Duration.ofSeconds(1));
        awaitRun("timeout-slow", "calling again", r -> count("call started") == 2);
        clock.advance(Duration.ofSeconds(10));

        assertThat(run.result(WAIT))
                .startsWith("gave up: " + StepTimeoutException.class.getName())
                .contains("attempt 2 of step 'call'")
                .contains("ran past its timeout of PT10S");
        awaitRun("timeout-slow", "interrupted twice", r -> count("call interrupted") == 2);
        assertThat(eventsOf("timeout-slow", StepRetrying.class)).hasSize(1);
        assertThat(eventsOf("timeout-slow", StepFailed.class)).hasSize(1);
        assertThat(eventsOf("timeout-slow", StepCompleted.class)).isEmpty();
    }

    @Test
    void aStepThatIgnoresTheInterruptCannotHoldTheRunAndItsLateResultIsNeverRecorded() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        Workflow<String, String> stubborn = Workflow.define("tck.timeout.stubborn", String.class, (ctx, in) -> {
            String outcome;
            try {
                outcome = ctx.step(
                        "stubborn",
                        StepOptions.defaults()
                                .withTimeout(Duration.ofSeconds(10))
                                .withRetry(RetryPolicy.none()),
                        () -> {
                            bump("stubborn started");
                            // ignores interrupts: waits on for the test
                            while (true) {
                                try {
                                    if (release.await(WAIT.toMillis() * 3, TimeUnit.MILLISECONDS)) {
                                        break;
                                    }
                                } catch (InterruptedException ignored) {
                                    bump("stubborn ignored an interrupt");
                                }
                            }
                            returned.countDown();
                            return "late";
                        });
            } catch (StepFailedException e) {
                outcome = "timed out";
            }
            return outcome + ", then " + ctx.step("next", () -> "next ran");
        });
        worldflow(stubborn);
        RunHandle<String> run = wf.start(stubborn, "x", StartOptions.id("timeout-stubborn"));
        awaitRun("timeout-stubborn", "started", r -> count("stubborn started") == 1);

        clock.advance(Duration.ofSeconds(10));
        assertThat(run.result(WAIT)).isEqualTo("timed out, then next ran");
        // the interrupted thread goes on by itself, and may see the interrupt after the run has moved past it
        awaitRun("timeout-stubborn", "interrupt seen", r -> count("stubborn ignored an interrupt") > 0);

        release.countDown();
        assertThat(returned.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        pause(100);
        assertThat(eventsOf("timeout-stubborn", StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactly("next");
        assertThat(eventsOf("timeout-stubborn", StepFailed.class))
                .singleElement()
                .satisfies(f -> assertThat(f.error().type()).isEqualTo(StepTimeoutException.class.getName()));
    }

    @Test
    void aStepThatKeepsHeartbeatingMayRunLongAndOneThatStopsFailsAtItsHeartbeatTimeout() {
        Semaphore go = new Semaphore(0);
        Workflow<String, String> beating = Workflow.define("tck.timeout.beating", String.class, (ctx, in) -> {
            try {
                return ctx.step(
                        "long",
                        StepOptions.defaults()
                                .withHeartbeatTimeout(Duration.ofSeconds(5))
                                .withRetry(RetryPolicy.none()),
                        () -> {
                            for (int i = 1; i <= 3; i++) {
                                go.acquire();
                                ctx.heartbeat("chunk " + i);
                                bump("beat");
                            }
                            return hang("long");
                        });
            } catch (StepFailedException e) {
                return "stopped: " + e.error().message();
            }
        });
        worldflow(beating);
        RunHandle<String> run = wf.start(beating, "x", StartOptions.id("timeout-beating"));
        for (int i = 1; i <= 3; i++) {
            clock.advance(Duration.ofSeconds(4)); // within the heartbeat timeout each time, 12 s in all
            go.release();
            int beats = i;
            awaitRun("timeout-beating", "beat " + i, r -> count("beat") == beats);
        }
        assertThat(run.status()).isNotIn(terminal());

        clock.advance(Duration.ofSeconds(5));
        assertThat(run.result(WAIT))
                .contains("sent no heartbeat for PT5S")
                .contains("its last heartbeat said: chunk 3");
        awaitRun("timeout-beating", "interrupted", r -> count("long interrupted") == 1);
    }

    @Test
    void aRunsDeadlineInterruptsARunningStep() {
        Workflow<String, String> slow = Workflow.define(
                "tck.timeout.deadline", String.class, (ctx, in) -> ctx.step("work", () -> hang("work")));
        worldflow(slow);
        RunHandle<String> run = wf.start(
                slow,
                "x",
                StartOptions.id("timeout-deadline").withDeadline(clock.instant().plus(Duration.ofMinutes(1))));
        awaitRun("timeout-deadline", "working", r -> count("work started") == 1);

        clock.advance(Duration.ofMinutes(1));
        assertThatThrownBy(() -> run.result(WAIT)).hasMessageContaining("deadline");
        assertThat(awaitStatus("timeout-deadline", RunStatus.FAILED).error().type())
                .isEqualTo(DeadlineExceededException.class.getName());
        awaitRun("timeout-deadline", "interrupted", r -> count("work interrupted") == 1);
        assertThat(eventsOf("timeout-deadline", StepCompleted.class)).isEmpty();
    }

    @Test
    void aStepWithALimitReachesItsRunThroughWorkflowContextAsAStepWithoutOneDoes() {
        // Workflow.context() is how code that is handed no ctx (an annotated workflow's steps) reaches the run
        Workflow<String, String> keyed = Workflow.define("tck.timeout.context", String.class, (ctx, in) -> {
            String plain = ctx.step("plain", () -> Workflow.context().idempotencyKey());
            String timed = ctx.step("timed", StepOptions.defaults().withTimeout(Duration.ofSeconds(30)), () -> {
                Workflow.context().heartbeat("still here");
                return Workflow.context().idempotencyKey() + " "
                        + Workflow.context().stepTimeLeft().isPresent();
            });
            // an annotated step interface's limits, as StepOptions gives them
            String annotated = Workflow.steps(Billing.class, new RealBilling()).charge(in);
            return plain + " / " + timed + " / " + annotated;
        });
        worldflow(keyed);
        assertThat(wf.start(keyed, "x", StartOptions.id("ctx-plain")).result(WAIT))
                .isEqualTo("ctx-plain:plain:1 / ctx-plain:timed:1 true / ctx-plain:charge:1 true");
        // a deadline puts every step under a limit
        assertThat(wf.start(keyed, "x", StartOptions.id("ctx-deadline").withTimeout(Duration.ofDays(30)))
                        .result(WAIT))
                .isEqualTo("ctx-deadline:plain:1 / ctx-deadline:timed:1 true / ctx-deadline:charge:1 true");
        assertThatThrownBy(() -> Workflow.steps(BadLimit.class, x -> x))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
    }

    /** Steps of the annotation style, under a time limit and a heartbeat timeout. */
    public interface Billing {
        @io.worldflow.annotation.Step(timeoutMillis = 30_000, heartbeatTimeoutMillis = 10_000)
        String charge(String customer);
    }

    static final class RealBilling implements Billing {
        @Override
        public String charge(String customer) {
            Workflow.context().heartbeat("charging " + customer);
            return Workflow.context().idempotencyKey() + " "
                    + Workflow.context().stepTimeLeft().isPresent();
        }
    }

    /** A step whose time limit cannot be. */
    public interface BadLimit {
        @io.worldflow.annotation.Step(timeoutMillis = -5)
        String run(String in);
    }

    @Test
    void aStepReadsTheTimeItHasLeftAndOutsideAStepThatIsAClearError() {
        Workflow<String, String> reader = Workflow.define("tck.timeout.reader", String.class, (ctx, in) -> {
            String left = ctx.step(
                    "read",
                    StepOptions.defaults().withTimeout(Duration.ofSeconds(30)),
                    () -> ctx.stepTimeLeft().orElseThrow().toString());
            String none = ctx.step("unlimited", () -> ctx.stepTimeLeft().toString());
            try {
                ctx.heartbeat("outside");
                return "no error";
            } catch (IllegalStateException e) {
                return left + " " + none + " / " + e.getMessage();
            }
        });
        worldflow(reader);
        assertThat(wf.start(reader, "x").result(WAIT))
                .isEqualTo("PT30S Optional.empty / heartbeat() is only available inside a step");
        assertThatThrownBy(() -> StepOptions.defaults().withTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> StepOptions.defaults().withHeartbeatTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heartbeatTimeout");
    }
}
