package io.worldflow.tck;

import io.worldflow.DeadlineExceededException;
import io.worldflow.ErrorInfo;
import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.NonRetryableException;
import io.worldflow.ResultTimeoutException;
import io.worldflow.RetryPolicy;
import io.worldflow.RunFinishedException;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStateException;
import io.worldflow.RunStatus;
import io.worldflow.Saga;
import io.worldflow.SerializationException;
import io.worldflow.StartOptions;
import io.worldflow.StepFailedException;
import io.worldflow.StepInterruptedException;
import io.worldflow.StepOptions;
import io.worldflow.UnknownWorkflowException;
import io.worldflow.Workflow;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.WorkflowFailedException;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * End-to-end behaviour when things go wrong: failures, compensation, determinism violations,
 * cancellation, deadlines and bad input. Each bad input gets a clear error and changes nothing.
 */
public abstract class WorkflowFailureContract extends WorkflowContractSupport {

    protected WorkflowFailureContract(WorldConformanceKit kit) {
        super(kit);
    }

    /** A value Jackson cannot serialize: it refers to itself. */
    public static final class Loop {
        public Loop self = this;
    }

    @Override
    protected WorkerOptions workerOptions() {
        return super.workerOptions().withHoldRetry(Duration.ofMinutes(1));
    }

    @Test
    void aWorkflowThatThrowsFailsWithItsError() {
        Workflow<String, String> w = Workflow.define("tck.throws", String.class, (ctx, in) -> {
            ctx.step("ok", () -> 1);
            throw new IllegalArgumentException("bad order " + in);
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "o-1");
        assertThatThrownBy(() -> run.result(WAIT))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("bad order o-1")
                .hasMessageContaining(run.id());
        RunInfo info = run.info();
        assertThat(info.status()).isEqualTo(RunStatus.FAILED);
        assertThat(info.error().type()).isEqualTo(IllegalArgumentException.class.getName());
        assertThat(info.error().stackTrace()).contains("IllegalArgumentException");
        assertThat(types(run.id())).last().isEqualTo("WorkflowFailed");
    }

    /** Ships, then charges at most once; an interrupted charge is reported, not run again. */
    private final Workflow<String, String> payOnce = Workflow.define("tck.at-most-once", String.class, (ctx, in) -> {
        String shipped = ctx.step("ship", () -> "shipped " + bump("ship"));
        try {
            return shipped + ", "
                    + ctx.step(
                            "charge", StepOptions.defaults().withAtMostOnce(true), () -> "charged " + bump("charge"));
        } catch (StepFailedException e) {
            return shipped + ", charge unknown: " + e.isCausedBy(StepInterruptedException.class) + " after attempt "
                    + e.attempts();
        }
    });

    @Test
    void aStepWhoseWorkerDiedDuringItRunsAgainUnlessItRunsAtMostOnce() {
        worldflow(payOnce);
        wf.close();
        world = open();
        // as if each run's worker died while a step of it ran: started, never ended
        Instant t0 = clock.instant();
        for (String id : List.of("ship-died", "charge-died")) {
            world.eventLog()
                    .create(new NewRun(
                            id,
                            "tck.at-most-once",
                            wf.codec().encode(id, "input"),
                            t0,
                            t0,
                            null,
                            StartOptions.DEFAULT_QUEUE,
                            0));
        }
        List<Event> shipDied = List.of(
                new StepScheduled("ship-died", 1, t0, "ship", "ship"), new StepStarted("ship-died", 2, t0, "ship", 1));
        List<Event> chargeDied = List.of(
                new StepScheduled("charge-died", 1, t0, "ship", "ship"),
                new StepStarted("charge-died", 2, t0, "ship", 1),
                new StepCompleted("charge-died", 3, t0, "ship", 1, wf.codec().encode("shipped before", "result")),
                new StepScheduled("charge-died", 4, t0, "charge", "charge"),
                new StepStarted("charge-died", 5, t0, "charge", 1));
        assertThat(world.eventLog()
                        .append(List.of(
                                new Append("ship-died", 1, shipDied, RunStatus.RUNNING),
                                new Append("charge-died", 1, chargeDied, RunStatus.RUNNING))))
                .allSatisfy(r -> assertThat(r.appended()).isTrue());

        worldflow(payOnce);

        // an ordinary step runs again, the same attempt
        assertThat(wf.handle("ship-died", String.class).result(WAIT)).isEqualTo("shipped 1, charged 1");
        // an at-most-once step fails instead, its cause recorded as the interruption
        assertThat(wf.handle("charge-died", String.class).result(WAIT))
                .isEqualTo("shipped before, charge unknown: true after attempt 1");
        assertThat(count("ship")).isEqualTo(1);
        assertThat(count("charge")).isEqualTo(1);
        assertThat(eventsOf("charge-died", StepFailed.class)).singleElement().satisfies(f -> {
            assertThat(f.stepId()).isEqualTo("charge");
            assertThat(f.error().type()).isEqualTo(StepInterruptedException.class.getName());
            assertThat(f.error().message()).contains("'charge'").contains("not run again");
        });
        assertThat(eventsOf("ship-died", StepStarted.class))
                .extracting(StepStarted::stepId, StepStarted::attempt)
                .containsExactly(tuple("ship", 1), tuple("ship", 1), tuple("charge", 1));
    }

    @Test
    void exhaustedRetriesAreThrownIntoTheWorkflowWhichMayCompensate() {
        Workflow<String, String> w = Workflow.define("tck.compensate", String.class, (ctx, in) -> {
            try {
                ctx.step("charge", StepOptions.retry(RetryPolicy.fixed(2, Duration.ZERO)), () -> {
                    throw new IllegalStateException("card declined");
                });
                return "charged";
            } catch (StepFailedException e) {
                String undo = ctx.step("refund", () -> "refunded:" + e.stepId() + ":" + e.attempts());
                return undo + ":" + e.isCausedBy(IllegalStateException.class);
            }
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThat(run.result(WAIT)).isEqualTo("refunded:charge:2:true");
        assertThat(eventsOf(run.id(), StepRetrying.class)).hasSize(1);
        assertThat(eventsOf(run.id(), StepFailed.class))
                .singleElement()
                .satisfies(f -> assertThat(f.error().message()).isEqualTo("card declined"));
    }

    @Test
    void aSagaUndoesWhatSucceededNewestFirstAndReportsAFailedUndoBesideTheFailure() {
        StepOptions once = StepOptions.retry(RetryPolicy.none());
        Workflow<Boolean, String> w = Workflow.define("tck.saga", Boolean.class, (ctx, parallel) -> {
            Saga saga = new Saga(ctx, parallel);
            try {
                ctx.step("reserve", () -> bump("reserve"));
                saga.addCompensation("release", () -> bump("release"));
                ctx.step("charge", () -> bump("charge"));
                saga.addCompensation("refund", () -> {
                    bump("refund");
                    throw new NonRetryableException("the card is closed");
                });
                ctx.step("book", () -> bump("book"));
                saga.addCompensation("cancel-booking", () -> bump("cancel-booking"));
                ctx.step("ship", once, () -> {
                    throw new IllegalStateException("no carrier");
                });
                return "shipped";
            } catch (StepFailedException e) {
                throw saga.compensate(e);
            }
        });
        worldflow(w);

        for (boolean parallel : List.of(false, true)) {
            RunHandle<String> run = wf.start(w, parallel);
            assertThatThrownBy(() -> run.result(WAIT))
                    .isInstanceOf(WorkflowFailedException.class)
                    .satisfies(e -> {
                        ErrorInfo error = ((WorkflowFailedException) e).error();
                        assertThat(error.type()).isEqualTo(StepFailedException.class.getName());
                        assertThat(error.message()).contains("'ship'").contains("no carrier");
                        assertThat(error.stackTrace()).contains("Suppressed").contains("compensate-refund");
                    });
            List<String> undone = eventsOf(run.id(), StepScheduled.class).stream()
                    .map(StepScheduled::name)
                    .filter(n -> n.startsWith("compensate-"))
                    .toList();
            if (parallel) {
                assertThat(undone)
                        .containsExactlyInAnyOrder(
                                "compensate-cancel-booking", "compensate-refund", "compensate-release");
            } else {
                assertThat(undone)
                        .containsExactly("compensate-cancel-booking", "compensate-refund", "compensate-release");
            }
            assertThat(eventsOf(run.id(), StepFailed.class))
                    .extracting(StepFailed::stepId)
                    .containsExactlyInAnyOrder(
                            "ship", parallel ? "compensate/1/compensate-refund" : "compensate-refund");
        }
        assertThat(count("release")).isEqualTo(2);
        assertThat(count("refund")).isEqualTo(2);
        assertThat(count("cancel-booking")).isEqualTo(2);
    }

    @Test
    void anUncaughtStepFailureFailsTheRunNamingTheStep() {
        Workflow<String, String> w = Workflow.define(
                "tck.step-fails",
                String.class,
                (ctx, in) -> ctx.step("ship", StepOptions.retry(RetryPolicy.none()), () -> {
                    throw new IllegalStateException("no courier");
                }));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThatThrownBy(() -> run.result(WAIT))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("ship")
                .hasMessageContaining("no courier");
    }

    @Test
    void aStepFailureRethrownAfterAReplayFailsTheRunWithTheSameCausesAsWithout() {
        StepOptions once = StepOptions.retry(RetryPolicy.none());
        Workflow<Boolean, String> w = Workflow.define("tck.step-fails-later", Boolean.class, (ctx, replayed) -> {
            try {
                return ctx.step("charge", once, () -> {
                    throw new IllegalStateException("card declined", new java.io.IOException("gateway down"));
                });
            } catch (StepFailedException e) {
                if (replayed) {
                    // the turn ends here: the next one replays the failed step from the log before rethrowing it
                    ctx.sleep("pause", Duration.ofHours(1));
                }
                throw e;
            }
        });
        worldflow(w);
        RunHandle<String> live = wf.start(w, false);
        RunHandle<String> later = wf.start(w, true);
        assertThatThrownBy(() -> live.result(WAIT)).isInstanceOf(WorkflowFailedException.class);
        awaitStatus(later.id(), RunStatus.SLEEPING);
        restart(w);
        clock.advance(Duration.ofHours(1));
        assertThatThrownBy(() -> wf.handle(later.id(), String.class).result(WAIT))
                .isInstanceOf(WorkflowFailedException.class);

        for (String id : List.of(live.id(), later.id())) {
            ErrorInfo error = wf.run(id).orElseThrow().error();
            assertThat(error.type()).as(id).isEqualTo(StepFailedException.class.getName());
            assertThat(error.causeTypes())
                    .as(id)
                    .containsExactly(IllegalStateException.class.getName(), java.io.IOException.class.getName());
            assertThat(error.isA(IllegalStateException.class)).isTrue();
            assertThat(error.stackTrace()).as(id).contains("Caused by: java.lang.IllegalStateException: card declined");
        }
    }

    @Test
    void aNonRetryableErrorFailsAtOnce() {
        Workflow<String, String> w = Workflow.define(
                "tck.non-retryable",
                String.class,
                (ctx, in) ->
                        ctx.step("validate", StepOptions.retry(RetryPolicy.fixed(5, Duration.ofMinutes(1))), () -> {
                            bump("validate");
                            throw new NonRetryableException("invalid address");
                        }));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThatThrownBy(() -> run.result(WAIT))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("invalid address");
        assertThat(count("validate")).isEqualTo(1);
        assertThat(eventsOf(run.id(), StepRetrying.class)).isEmpty();
    }

    @Test
    void aStepResultThatCannotBeSerializedFailsTheStepClearly() {
        Workflow<String, String> w = Workflow.define("tck.bad-result", String.class, (ctx, in) -> {
            try {
                ctx.step("loop", Loop::new);
                return "unreachable";
            } catch (StepFailedException e) {
                return e.error().summary();
            }
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThat(run.result(WAIT)).contains("loop").contains("serialize");
    }

    @Test
    void anInputThatCannotBeSerializedIsRejectedAndNothingIsWritten() {
        Workflow<Loop, String> w = Workflow.define("tck.bad-input", Loop.class, (ctx, in) -> "never");
        worldflow(w);
        assertThatThrownBy(() -> wf.start(w, new Loop(), StartOptions.id("bad-input")))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("tck.bad-input");
        assertThat(world.runQueries().get("bad-input")).isEmpty();
    }

    @Test
    void startingAnUnknownWorkflowNameIsRejected() {
        worldflow();
        assertThatThrownBy(() -> wf.start("tck.nope", "x", StartOptions.id("unknown-wf")))
                .isInstanceOf(UnknownWorkflowException.class)
                .hasMessageContaining("tck.nope");
        assertThat(world.runQueries().get("unknown-wf")).isEmpty();
    }

    @Test
    void signalsToUnknownOrFinishedRunsAreRejected() {
        Workflow<String, String> w = Workflow.define("tck.quick", String.class, (ctx, in) -> in);
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThat(run.result(WAIT)).isEqualTo("x");
        assertThatThrownBy(() -> wf.signal(run.id(), "late", "v"))
                .isInstanceOf(RunFinishedException.class)
                .hasMessageContaining(run.id());
        assertThatThrownBy(() -> wf.signal("no-such-run", "s", "v"))
                .isInstanceOf(RunNotFoundException.class)
                .hasMessageContaining("no-such-run");
        assertThat(world.signals().pending(run.id())).isEmpty();
    }

    @Test
    void changedCodeHoldsTheRunAndAFixedDeployResumesIt() {
        Workflow<String, String> v1 = Workflow.define("tck.deploy", String.class, (ctx, in) -> {
            String a = ctx.step("reserve", () -> "r" + bump("reserve"));
            ctx.sleep("wait", Duration.ofHours(1));
            return a + ctx.step("ship", () -> "s");
        });
        Workflow<String, String> broken = Workflow.define("tck.deploy", String.class, (ctx, in) -> {
            String a = ctx.step("charge", () -> "c" + bump("charge"));
            ctx.sleep("wait", Duration.ofHours(1));
            return a + ctx.step("ship", () -> "s");
        });
        worldflow(v1);
        RunHandle<String> run = wf.start(v1, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        long before = world.eventLog().read(run.id(), 0).size();

        restart(broken);
        clock.advance(Duration.ofHours(1));
        RunInfo held = awaitRun(run.id(), "held", RunInfo::isHeld);
        assertThat(held.held().type()).isEqualTo(NonDeterministicWorkflowException.class.getName());
        assertThat(held.held().message()).contains("reserve").contains("charge");
        assertThat(held.status()).isNotIn(RunStatus.FAILED, RunStatus.COMPLETED);
        assertThat(world.eventLog().read(run.id(), 0)).hasSize((int) before);
        assertThat(count("charge")).isZero();

        restart(v1);
        clock.advance(Duration.ofMinutes(1));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("r1s");
        assertThat(count("reserve")).isEqualTo(1);
        assertThat(wf.run(run.id()).orElseThrow().isHeld()).isFalse();
    }

    @Test
    void aWorkerThatStartsRetriesItsHeldRunsAtOnceAndAReplayThatMatchesClearsTheHold() {
        Workflow<String, String> v1 = Workflow.define("tck.redeploy", String.class, (ctx, in) -> {
            String a = ctx.step("reserve", () -> "r" + bump("reserve"));
            return a + ctx.awaitSignal("go", String.class);
        });
        Workflow<String, String> broken = Workflow.define("tck.redeploy", String.class, (ctx, in) -> {
            String a = ctx.step("charge", () -> "c" + bump("charge"));
            return a + ctx.awaitSignal("go", String.class);
        });
        worldflow(v1);
        RunHandle<String> run = wf.start(v1, "x");
        awaitStatus(run.id(), RunStatus.WAITING);

        restart(broken);
        wf.signal(run.id(), "note", "a signal it does not wait for: its turn replays the changed code");
        RunInfo held = awaitRun(run.id(), "held", RunInfo::isHeld);
        assertThat(held.status()).as("a held run keeps its status").isEqualTo(RunStatus.WAITING);
        assertThat(held.heldSince()).isNotNull();
        assertThatThrownBy(() -> wf.handle(run.id(), String.class).result(Duration.ofMillis(100)))
                .isInstanceOf(ResultTimeoutException.class)
                .hasMessageContaining("held since " + held.heldSince())
                .hasMessageContaining(NonDeterministicWorkflowException.class.getSimpleName())
                .hasMessageContaining("reserve");

        restart(v1); // the manual clock stands still: no hold-retry interval passes
        RunInfo resumed = awaitRun(run.id(), "no longer held", r -> !r.isHeld());
        assertThat(resumed.status()).as("it waits for its signal again").isEqualTo(RunStatus.WAITING);
        assertThat(resumed.heldSince()).isNull();
        wf.signal(run.id(), "go", "!");
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("r1!");
        assertThat(count("charge")).isZero();
    }

    @Test
    void aRunOfAnUnregisteredWorkflowResumesAtOnceWhenAWorkerThatKnowsItStarts() {
        Workflow<String, String> napper = Workflow.define("tck.napper", String.class, (ctx, in) -> {
            ctx.sleep("nap", Duration.ofHours(1));
            return in + ctx.step("wake", () -> "!" + bump("wake"));
        });
        Workflow<String, String> other = Workflow.define("tck.other-workflow", String.class, (ctx, in) -> in);
        worldflow(napper);
        RunHandle<String> run = wf.start(napper, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);

        restart(other);
        clock.advance(Duration.ofHours(1));
        RunInfo held = awaitRun(run.id(), "held", RunInfo::isHeld);
        assertThat(held.held().type()).isEqualTo(UnknownWorkflowException.class.getName());
        assertThat(held.held().message()).contains("tck.napper");

        restart(napper);
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("x!1");
        assertThat(wf.run(run.id()).orElseThrow().isHeld()).isFalse();
    }

    @Test
    void cancellationEndsTheRunAndNoFurtherStepStarts() {
        Workflow<String, String> w = Workflow.define("tck.cancel", String.class, (ctx, in) -> {
            ctx.step("before", () -> 1);
            ctx.sleep("wait", Duration.ofHours(1));
            return ctx.step("after", () -> "after" + bump("after"));
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofMinutes(1));
        Instant requestedAt = clock.instant();
        wf.cancel(run.id(), "customer changed their mind");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(eventsOf(run.id(), WorkflowCancelRequested.class))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.reason()).isEqualTo("customer changed their mind");
                    assertThat(c.requestedAt()).isEqualTo(requestedAt);
                });
        assertThat(run.status()).isEqualTo(RunStatus.CANCELED);
        clock.advance(Duration.ofHours(2));
        pause(100);
        assertThat(count("after")).isZero();
        assertThat(eventsOf(run.id(), WorkflowCancelRequested.class)).hasSize(1);
        assertThat(eventsOf(run.id(), WorkflowCanceled.class)).hasSize(1);
        assertThatThrownBy(run::cancel).isInstanceOf(RunFinishedException.class);
    }

    @Test
    void pastItsDeadlineNoStepStartsAndTheRunFails() {
        Workflow<String, String> w = Workflow.define("tck.deadline", String.class, (ctx, in) -> {
            ctx.sleep("long", Duration.ofHours(2));
            return ctx.step("late", () -> "late" + bump("late"));
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x", StartOptions.defaults().withTimeout(Duration.ofHours(1)));
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofHours(1));
        assertThatThrownBy(() -> run.result(WAIT))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("deadline");
        assertThat(run.info().error().type()).isEqualTo(DeadlineExceededException.class.getName());
        assertThat(count("late")).isZero();
    }

    @Test
    void anAbsoluteDeadlineInThePastFailsBeforeTheFirstStep() {
        Workflow<String, String> w =
                Workflow.define("tck.deadline-past", String.class, (ctx, in) -> ctx.step("s", () -> "ran" + bump("s")));
        worldflow(w);
        Instant past = clock.instant().minusSeconds(1);
        RunHandle<String> run = wf.start(w, "x", StartOptions.defaults().withDeadline(past));
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowFailedException.class);
        assertThat(count("s")).isZero();
    }

    @Test
    void oneFailingRunDoesNotDisturbOthers() {
        Workflow<Integer, Integer> w = Workflow.define("tck.mixed", Integer.class, (ctx, n) -> {
            int v = ctx.step("v", () -> n);
            if (v % 3 == 0) {
                throw new IllegalStateException("multiple of three: " + v);
            }
            return v;
        });
        worldflow(w);
        List<RunHandle<Integer>> runs = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            runs.add(wf.start(w, i));
        }
        for (int i = 1; i <= 30; i++) {
            RunHandle<Integer> run = runs.get(i - 1);
            if (i % 3 == 0) {
                assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowFailedException.class);
            } else {
                assertThat(run.result(WAIT)).isEqualTo(i);
            }
        }
    }

    // ---------------------------------------------------------------- retrying a failed run

    private static volatile boolean cardWorks;

    private Workflow<String, String> checkout() {
        return Workflow.define("tck.checkout", String.class, (ctx, in) -> {
            ctx.step("reserve", () -> bump("reserve"));
            return ctx.step("charge", StepOptions.retry(RetryPolicy.fixed(2, Duration.ZERO)), () -> {
                bump("charge");
                if (!cardWorks) {
                    throw new IllegalStateException("card declined");
                }
                return "charged " + in;
            });
        });
    }

    @Test
    void aFailedRunRetriedRunsItsFailedStepAgainWithAFreshBudgetAndKeepsEarlierSteps() {
        cardWorks = false;
        Workflow<String, String> w = checkout();
        worldflow(w);
        RunHandle<String> run = wf.start(w, "o-1");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowFailedException.class);
        assertThat(count("charge")).isEqualTo(2);

        wf.retry(run.id(), "still declined?");
        assertThatThrownBy(() -> wf.handle(run.id(), String.class).result(WAIT))
                .isInstanceOf(WorkflowFailedException.class);
        assertThat(count("charge")).as("a fresh budget of two attempts").isEqualTo(4);

        cardWorks = true;
        wf.retry(run.id(), "card replaced");
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("charged o-1");

        assertThat(count("reserve")).as("the step before the failure ran once").isEqualTo(1);
        assertThat(count("charge")).isEqualTo(5);
        assertThat(eventsOf(run.id(), StepStarted.class))
                .filteredOn(s -> s.stepId().equals("charge"))
                .extracting(StepStarted::attempt)
                .containsExactly(1, 2, 3, 4, 5);
        assertThat(eventsOf(run.id(), WorkflowRetried.class))
                .extracting(WorkflowRetried::stepId, WorkflowRetried::reason)
                .containsExactly(tuple("charge", "still declined?"), tuple("charge", "card replaced"));
        assertThat(run.info().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(run.info().error()).isNull();
    }

    @Test
    void aFailureTheWorkflowHandledCannotBeRetriedAndNothingChanges() {
        Workflow<String, String> w = Workflow.define("tck.handled", String.class, (ctx, in) -> {
            try {
                ctx.step("charge", StepOptions.retry(RetryPolicy.none()), () -> {
                    throw new IllegalStateException("card declined");
                });
            } catch (StepFailedException e) {
                ctx.step("refund", () -> "refunded");
            }
            throw new IllegalStateException("order abandoned");
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowFailedException.class);
        RunInfo before = run.info();

        assertThatThrownBy(() -> wf.retry(run.id(), null))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("charge")
                .hasMessageContaining("refund");

        assertThat(run.info()).isEqualTo(before);
    }

    @Test
    void onlyAFailedRunCanBeRetried() {
        Workflow<String, String> w = Workflow.define("tck.fine", String.class, (ctx, in) -> ctx.step("a", () -> in));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThat(run.result(WAIT)).isEqualTo("x");
        RunInfo before = run.info();

        assertThatThrownBy(() -> wf.retry(run.id(), null))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("COMPLETED");
        assertThatThrownBy(() -> wf.retry("ghost", null)).isInstanceOf(RunNotFoundException.class);
        assertThatThrownBy(() -> wf.retry(run.id(), "r".repeat(1001))).isInstanceOf(IllegalArgumentException.class);

        assertThat(run.info()).isEqualTo(before);
        assertThat(wf.run("ghost")).isEmpty();
    }

    @Test
    void aWorkflowWhoseCodeFailedIsReplayedOnRetry() {
        cardWorks = false;
        Workflow<String, String> w = Workflow.define("tck.code-fails", String.class, (ctx, in) -> {
            String a = ctx.step("a", () -> "a" + bump("a"));
            if (!cardWorks) {
                throw new IllegalStateException("not yet");
            }
            return a + ctx.step("b", () -> "b");
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowFailedException.class);

        cardWorks = true;
        wf.retry(run.id(), "fixed");

        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("a1b");
        assertThat(count("a")).isEqualTo(1);
        assertThat(eventsOf(run.id(), WorkflowRetried.class))
                .singleElement()
                .satisfies(r -> assertThat(r.stepId()).isNull());
    }
}
