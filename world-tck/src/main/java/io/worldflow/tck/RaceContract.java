package io.worldflow.tck;

import io.worldflow.ChildOptions;
import io.worldflow.DurableFuture;
import io.worldflow.ParentClosePolicy;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.RaceStarted;
import io.worldflow.event.RaceWon;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Races of durable futures end to end: the first to end wins and is recorded, the others are canceled (a timer no
 * longer fires, a signal wait takes no signal, a scope's step is interrupted, a child is asked to cancel), a replay
 * returns the same winner, and a change of what races holds the run.
 */
public abstract class RaceContract extends WorkflowContractSupport {

    protected RaceContract(WorldConformanceKit kit) {
        super(kit);
    }

    @Override
    protected WorkerOptions workerOptions() {
        return super.workerOptions().withHoldRetry(Duration.ofMinutes(1));
    }

    /** A payment signal against a one-hour timer. */
    private final Workflow<String, String> checkout = Workflow.define("tck.race.checkout", String.class, (ctx, in) -> {
        DurableFuture<String> paid = ctx.signalAsync("pay", String.class);
        DurableFuture<Void> expiry = ctx.timer("expiry", Duration.ofHours(1));
        DurableFuture<?> first = ctx.race("first", paid, expiry);
        if (first == paid) {
            return "paid " + paid.get();
        }
        // the losing wait took no signal: a later one reaches this wait
        return "expired, then "
                + ctx.awaitSignal("pay", String.class, Duration.ofHours(1)).orElse("nothing");
    });

    @Test
    void aSignalThatComesFirstWinsAndTheTimerNeverFires() {
        worldflow(checkout);
        RunHandle<String> run = wf.start(checkout, "o", StartOptions.id("race-paid"));
        awaitStatus("race-paid", RunStatus.WAITING);

        wf.signal("race-paid", "pay", "card");
        assertThat(run.result(WAIT)).isEqualTo("paid card");
        assertThat(eventsOf("race-paid", RaceWon.class))
                .singleElement()
                .satisfies(w -> assertThat(w.winnerId()).isEqualTo("pay"));
        assertThat(eventsOf("race-paid", PrimitiveCanceled.class))
                .extracting(PrimitiveCanceled::primitiveId)
                .containsExactly("expiry");
        assertThat(eventsOf("race-paid", TimerFired.class)).isEmpty();
    }

    @Test
    void aTimerThatComesFirstWinsAndTheLosingWaitTakesNoSignal() {
        worldflow(checkout);
        RunHandle<String> run = wf.start(checkout, "o", StartOptions.id("race-expired"));
        awaitStatus("race-expired", RunStatus.WAITING);

        clock.advance(Duration.ofHours(1));
        awaitEvent("race-expired", RaceWon.class);
        awaitRun(
                "race-expired",
                "waiting again",
                r -> r.status() == RunStatus.WAITING
                        && eventsOf("race-expired", SignalRequested.class).size() == 2);
        wf.signal("race-expired", "pay", "late card");
        assertThat(run.result(WAIT)).isEqualTo("expired, then late card");
        assertThat(eventsOf("race-expired", RaceWon.class).getFirst().winnerId())
                .isEqualTo("expiry");
        assertThat(eventsOf("race-expired", PrimitiveCanceled.class))
                .extracting(PrimitiveCanceled::primitiveId)
                .containsExactly("pay");
        assertThat(eventsOf("race-expired", SignalReceived.class))
                .singleElement()
                .satisfies(s -> assertThat(s.waitId()).isEqualTo("pay~2"));
    }

    @Test
    void aLosingScopeHasItsRunningStepInterruptedAndNothingMoreRecorded() {
        Workflow<String, String> slow = Workflow.define("tck.race.slow", String.class, (ctx, in) -> {
            DurableFuture<String> quote = ctx.async(
                    "quote",
                    scope -> scope.step("fetch", () -> {
                        bump("fetch started");
                        try {
                            Thread.sleep(WAIT.toMillis() * 3);
                            return "quote";
                        } catch (InterruptedException e) {
                            bump("fetch interrupted");
                            throw e;
                        }
                    }));
            DurableFuture<Void> limit = ctx.timer("limit", Duration.ofSeconds(10));
            bump("limit set");
            return ctx.race("quote-or-limit", quote, limit) == quote ? quote.get() : "no quote in time";
        });
        worldflow(slow);
        RunHandle<String> run = wf.start(slow, "x", StartOptions.id("race-slow"));
        // the step runs on a thread of its own and may start before the timer is set, ten seconds from then
        awaitRun("race-slow", "fetching", r -> count("fetch started") == 1 && count("limit set") >= 1);

        clock.advance(Duration.ofSeconds(10)); // less than a lease: the turn with the running step is kept
        assertThat(run.result(WAIT)).isEqualTo("no quote in time");
        awaitRun("race-slow", "interrupted", r -> count("fetch interrupted") == 1);
        assertThat(eventsOf("race-slow", PrimitiveCanceled.class))
                .extracting(PrimitiveCanceled::primitiveId)
                .containsExactly("quote");
        assertThat(eventsOf("race-slow", StepCompleted.class)).isEmpty();
        assertThat(eventsOf("race-slow", StepFailed.class)).isEmpty();
    }

    @Test
    void aLosingChildIsAskedToCancelUnlessItIsAbandoned() {
        Workflow<String, String> napper = Workflow.define("tck.race.napper", String.class, (ctx, in) -> {
            ctx.sleep("nap", Duration.ofHours(1));
            return ctx.step("wake", () -> in + " woke" + bump("woke " + in));
        });
        Workflow<String, String> parent = Workflow.define("tck.race.parent", String.class, (ctx, in) -> {
            DurableFuture<String> canceled = ctx.childAsync("canceled", napper, "c");
            DurableFuture<String> abandoned = ctx.childAsync(
                    "abandoned", napper, "a", ChildOptions.defaults().withParentClosePolicy(ParentClosePolicy.ABANDON));
            DurableFuture<String> stop = ctx.signalAsync("stop", String.class);
            DurableFuture<?> first = ctx.race("first", canceled, abandoned, stop);
            return first == stop ? "stopped" : "a child won";
        });
        worldflow(parent, napper);
        RunHandle<String> run = wf.start(parent, "p", StartOptions.id("race-kids"));
        awaitStatus("race-kids/canceled", RunStatus.SLEEPING);
        awaitStatus("race-kids/abandoned", RunStatus.SLEEPING);

        wf.signal("race-kids", "stop", "now");
        assertThat(run.result(WAIT)).isEqualTo("stopped");
        awaitStatus("race-kids/canceled", RunStatus.CANCELED);
        assertThat(wf.run("race-kids/abandoned").orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        clock.advance(Duration.ofHours(1));
        assertThat(wf.handle("race-kids/abandoned", String.class).result(WAIT)).isEqualTo("a woke1");
        assertThat(count("woke c")).isZero();
    }

    @Test
    void theRecordedWinnerIsWhatAReplayReturns() {
        Workflow<String, String> v1 = Workflow.define("tck.race.replayed", String.class, (ctx, in) -> {
            DurableFuture<String> paid = ctx.signalAsync("pay", String.class);
            DurableFuture<Void> expiry = ctx.timer("expiry", Duration.ofHours(1));
            String outcome = ctx.race("first", paid, expiry) == paid ? "paid " + paid.get() : "expired";
            ctx.sleep("settle", Duration.ofHours(2));
            return outcome + bump("ended");
        });
        worldflow(v1);
        RunHandle<String> run = wf.start(v1, "o", StartOptions.id("race-replayed"));
        awaitStatus("race-replayed", RunStatus.WAITING);
        wf.signal("race-replayed", "pay", "card");
        awaitStatus("race-replayed", RunStatus.SLEEPING);

        // a new worker replays the race while the losing timer is long due: the recorded winner still wins
        restart(v1);
        clock.advance(Duration.ofHours(3));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("paid card1");
        assertThat(eventsOf("race-replayed", RaceWon.class)).hasSize(1);
        assertThat(eventsOf("race-replayed", PrimitiveCanceled.class)).hasSize(1);
        assertThat(eventsOf("race-replayed", TimerFired.class))
                .extracting(TimerFired::timerId)
                .containsExactly("settle");
    }

    @Test
    void aWinnerDurableBeforeItsRaceWasDecidedStillWinsAfterACrash() {
        worldflow(checkout);
        wf.close();
        world = open();
        // as if the worker died after the signal was recorded and before the race's winner was
        Instant t0 = clock.instant();
        world.eventLog()
                .create(new NewRun(
                        "race-crash",
                        "tck.race.checkout",
                        wf.codec().encode("o", "input"),
                        t0,
                        t0,
                        null,
                        StartOptions.DEFAULT_QUEUE,
                        0));
        List<Event> recorded = List.of(
                new SignalRequested("race-crash", 1, t0, "pay", "pay", null),
                new TimerScheduled("race-crash", 2, t0, "expiry", "expiry", t0.plus(Duration.ofHours(1))),
                new RaceStarted("race-crash", 3, t0, "first", "first", List.of("pay", "expiry")),
                new SignalReceived("race-crash", 4, t0, "pay", "pay", wf.codec().encode("card", "signal"), t0));
        assertThat(world.eventLog().append(List.of(new Append("race-crash", 1, recorded, RunStatus.WAITING))))
                .singleElement()
                .satisfies(r -> assertThat(r.appended()).isTrue());
        // the losing timer is due too when the run resumes
        clock.advance(Duration.ofHours(2));

        worldflow(checkout);
        assertThat(wf.handle("race-crash", String.class).result(WAIT)).isEqualTo("paid card");
        // the timer may have fired too as it resumed, but the outcome the log held first is the winner
        assertThat(eventsOf("race-crash", RaceWon.class))
                .singleElement()
                .satisfies(w -> assertThat(w.winnerId()).isEqualTo("pay"));
    }

    @Test
    void swappingTheContendersOfARaceHoldsTheRun() {
        Workflow<String, String> v2 = Workflow.define("tck.race.checkout", String.class, (ctx, in) -> {
            DurableFuture<String> paid = ctx.signalAsync("pay", String.class);
            DurableFuture<Void> expiry = ctx.timer("expiry", Duration.ofHours(1));
            return ctx.race("first", expiry, paid) == paid ? "paid " + paid.get() : "expired";
        });
        assertChangeHolds(v2, "race-swapped", "[pay, expiry]", "[expiry, pay]");
    }

    @Test
    void replacingATimerByASignalInARaceHoldsTheRun() {
        Workflow<String, String> v2 = Workflow.define("tck.race.checkout", String.class, (ctx, in) -> {
            DurableFuture<String> paid = ctx.signalAsync("pay", String.class);
            DurableFuture<String> expiry = ctx.signalAsync("expiry", String.class);
            return ctx.race("first", paid, expiry) == paid ? "paid " + paid.get() : "expired";
        });
        assertChangeHolds(v2, "race-replaced", "timer 'expiry'", "signal 'expiry'");
    }

    private void assertChangeHolds(Workflow<String, String> v2, String runId, String was, String now) {
        worldflow(checkout);
        RunHandle<String> run = wf.start(checkout, "o", StartOptions.id(runId));
        awaitStatus(runId, RunStatus.WAITING);

        restart(v2);
        wf.signal(runId, "pay", "card");
        RunInfo held = awaitRun(runId, "held", RunInfo::isHeld);
        assertThat(held.held().message()).contains(was).contains(now);
        assertThat(held.status()).isNotIn(terminal());
        assertThat(eventsOf(runId, RaceWon.class)).isEmpty();

        restart(checkout);
        clock.advance(Duration.ofMinutes(1));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("paid card");
    }

    @Test
    void allOfWaitsForEveryFutureAndThrowsTheFirstFailureInOrder() {
        Workflow<String, String> both = Workflow.define("tck.race.both", String.class, (ctx, in) -> {
            DurableFuture<String> a = ctx.stepAsync("a", () -> "A" + bump("a"));
            DurableFuture<Void> nap = ctx.timer("nap", Duration.ofMinutes(5));
            DurableFuture<String> b = ctx.stepAsync("b", () -> {
                throw new io.worldflow.NonRetryableException("b broke");
            });
            try {
                ctx.allOf(List.of(a, nap, b));
                return "all fine";
            } catch (RuntimeException e) {
                return a.get() + " and " + e.getClass().getSimpleName() + " after the nap";
            }
        });
        worldflow(both);
        RunHandle<String> run = wf.start(both, "x", StartOptions.id("race-all"));
        awaitStatus("race-all", RunStatus.SLEEPING);
        assertThat(run.status()).isNotIn(terminal());

        clock.advance(Duration.ofMinutes(5));
        assertThat(run.result(WAIT)).isEqualTo("A1 and StepFailedException after the nap");
    }

    @Test
    void allOfNoFutureReturnsAtOnceAndOfOneFutureTwiceIsAClearError() {
        Workflow<String, String> w = Workflow.define("tck.race.allofnone", String.class, (ctx, in) -> {
            ctx.allOf(List.of());
            DurableFuture<String> a = ctx.stepAsync("a", () -> "A");
            try {
                ctx.allOf(List.of(a, a));
                return "no error";
            } catch (IllegalArgumentException e) {
                return e.getMessage() + "; " + a.get();
            }
        });
        worldflow(w);
        assertThat(wf.start(w, "x").result(WAIT)).isEqualTo("allOf is given future 'a' twice; A");
    }

    @Test
    void aRaceOfNoFutureOrOfOneFutureTwiceIsAClearErrorAndRecordsNoRace() {
        java.util.concurrent.atomic.AtomicReference<DurableFuture<?>> foreign =
                new java.util.concurrent.atomic.AtomicReference<>();
        Workflow<String, String> donor = Workflow.define("tck.race.donor", String.class, (ctx, in) -> {
            foreign.set(ctx.timer("gift", Duration.ofMinutes(1)));
            return "given";
        });
        Workflow<String, String> bad = Workflow.define("tck.race.bad", String.class, (ctx, in) -> {
            DurableFuture<Void> t = ctx.timer("t", Duration.ofMinutes(1));
            List<String> errors = new java.util.ArrayList<>();
            for (List<DurableFuture<?>> contenders :
                    List.<List<DurableFuture<?>>>of(List.of(), List.of(t, t), List.of(t, foreign.get()))) {
                try {
                    ctx.race("bad", contenders);
                } catch (IllegalArgumentException e) {
                    errors.add(e.getMessage());
                }
            }
            try {
                ctx.race("bad", t, null);
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
            try {
                ctx.timer("negative", Duration.ofSeconds(-1));
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
            return String.join(" | ", errors);
        });
        worldflow(bad, donor);
        assertThat(wf.start(donor, "x").result(WAIT)).isEqualTo("given");
        String message = wf.start(bad, "x", StartOptions.id("race-bad")).result(WAIT);
        assertThat(message)
                .contains("race 'bad' needs at least one future")
                .contains("race 'bad' is given future 't' twice")
                .contains("race 'bad' is given a future that is not of this run: gift")
                .contains("race 'bad' is given a future that is not of this run: null")
                .contains("timer duration must not be negative");
        assertThat(eventsOf("race-bad", RaceStarted.class)).isEmpty();
    }
}
