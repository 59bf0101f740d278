package io.worldflow.tck;

import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.ParallelOptions;
import io.worldflow.RetryPolicy;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * End-to-end behaviour of workflows on the world under test: steps, replay, durable timers, signals,
 * retries, fan-out and recorded values, with time moved only by the manual clock.
 */
public abstract class WorkflowContract extends WorkflowContractSupport {

    protected WorkflowContract(WorldConformanceKit kit) {
        super(kit);
    }

    public record Item(String name, int qty) {}

    public record Label(String item, int n) {}

    @Test
    void aStepRunsOnlyOnceTheOutcomesBeforeItAreDurable() {
        List<List<String>> seenByStep = new CopyOnWriteArrayList<>();
        Workflow<Item, String> w = Workflow.define("tck.durable-before", Item.class, (ctx, item) -> {
            String runId = ctx.runId();
            Supplier<List<String>> durable = () -> world.eventLog().read(runId, 0).stream()
                    .filter(e -> e instanceof StepCompleted || e instanceof SignalReceived)
                    .map(e -> e instanceof StepCompleted c ? c.stepId() : "signal")
                    .toList();
            ctx.step("s1", () -> seenByStep.add(durable.get()));
            ctx.step("s2", () -> seenByStep.add(durable.get()));
            ctx.awaitSignal("go", String.class);
            ctx.step("s3", () -> seenByStep.add(durable.get()));
            return "done";
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, new Item("mug", 1));
        awaitStatus(run.id(), RunStatus.WAITING);
        wf.signal(run.id(), "go", "now");

        assertThat(run.result(WAIT)).isEqualTo("done");
        assertThat(seenByStep).containsExactly(List.of(), List.of("s1"), List.of("s1", "s2", "signal"));
    }

    @Test
    void inAFanOutAStepRunsOnlyOnceWhatItsOwnCodeSawIsDurable() {
        Map<String, List<String>> seenByStep = new ConcurrentHashMap<>();
        Workflow<Item, String> w = Workflow.define("tck.durable-branches", Item.class, (ctx, item) -> {
            String runId = ctx.runId();
            Supplier<List<String>> durable = () -> world.eventLog().read(runId, 0).stream()
                    .filter(e -> e instanceof StepCompleted)
                    .map(e -> ((StepCompleted) e).stepId())
                    .sorted()
                    .toList();
            ctx.step("before", () -> "x");
            ctx.parallel("fan", List.of("a", "b"), (branch, name) -> {
                branch.step("first", () -> seenByStep.put(name + ".first", durable.get()));
                return branch.step("second", () -> seenByStep.put(name + ".second", durable.get()));
            });
            ctx.step("after", () -> seenByStep.put("after", durable.get()));
            return "done";
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, new Item("mug", 1));

        assertThat(run.result(WAIT)).isEqualTo("done");
        // what the parent saw before the fork, and each branch's own earlier steps, were durable first
        assertThat(seenByStep.get("a.first")).contains("before");
        assertThat(seenByStep.get("b.first")).contains("before");
        assertThat(seenByStep.get("a.second")).contains("before", "fan/0/first");
        assertThat(seenByStep.get("b.second")).contains("before", "fan/1/first");
        // after the join the parent has seen every branch's outcomes
        assertThat(seenByStep.get("after"))
                .containsExactly("before", "fan/0/first", "fan/0/second", "fan/1/first", "fan/1/second");
    }

    @Test
    void stepsRunInOrderAndTheResultIsRecorded() {
        Workflow<Item, Label> w = Workflow.define("tck.steps", Item.class, (ctx, item) -> {
            int a = ctx.step("s1", () -> 1);
            int b = ctx.step("s2", () -> a + 1);
            return ctx.step("s3", () -> new Label(item.name(), b + item.qty()));
        });
        worldflow(w);
        RunHandle<Label> run = wf.start(w, new Item("mug", 40));
        assertThat(run.result(WAIT)).isEqualTo(new Label("mug", 42));
        assertThat(types(run.id()))
                .containsExactly(
                        "WorkflowStarted",
                        "StepScheduled",
                        "StepStarted",
                        "StepCompleted",
                        "StepScheduled",
                        "StepStarted",
                        "StepCompleted",
                        "StepScheduled",
                        "StepStarted",
                        "StepCompleted",
                        "WorkflowCompleted");
        assertThat(eventsOf(run.id(), StepScheduled.class))
                .extracting(StepScheduled::stepId)
                .containsExactly("s1", "s2", "s3");
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void repeatedStepNamesGetCountedIds() {
        Workflow<Integer, List<Integer>> w = Workflow.define("tck.loop", Integer.class, (ctx, n) -> {
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int v = i;
                out.add(ctx.step("fetch", () -> v * v));
            }
            return out;
        });
        worldflow(w);
        RunHandle<List<Integer>> run = wf.start(w, 4);
        assertThat(run.result(WAIT)).containsExactly(0, 1, 4, 9);
        assertThat(eventsOf(run.id(), StepScheduled.class))
                .extracting(StepScheduled::stepId)
                .containsExactly("fetch", "fetch~2", "fetch~3", "fetch~4");
    }

    @Test
    void aThousandStepRunExecutesWithoutReplayingPerStep() {
        Workflow<Integer, Integer> w = Workflow.define("tck.long", Integer.class, (ctx, n) -> {
            bump("bodyStarts");
            int sum = 0;
            for (int i = 0; i < n; i++) {
                int v = i;
                sum += ctx.step("s", () -> v);
            }
            return sum;
        });
        worldflow(w);
        RunHandle<Integer> run = wf.start(w, 1000);
        assertThat(run.result(Duration.ofSeconds(60))).isEqualTo(999 * 1000 / 2);
        assertThat(eventsOf(run.id(), StepCompleted.class)).hasSize(1000);
        assertThat(count("bodyStarts"))
                .as("workflow body executions (1 = no replay)")
                .isEqualTo(1);
    }

    @Test
    void completedStepsAreNotRunAgainWhenTheRunResumes() {
        Workflow<String, String> w = Workflow.define("tck.resume", String.class, (ctx, in) -> {
            String a = ctx.step("a", () -> "a" + bump("a"));
            ctx.sleep("nap", Duration.ofHours(1));
            String b = ctx.step("b", () -> "b" + bump("b"));
            return a + b;
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofHours(1));
        assertThat(run.result(WAIT)).isEqualTo("a1b1");
        assertThat(count("a")).isEqualTo(1);
        assertThat(count("b")).isEqualTo(1);
    }

    @Test
    void aTimerFiresAtItsTimeAndNotBefore() {
        Workflow<String, Instant> w = Workflow.define("tck.timer", String.class, (ctx, in) -> {
            ctx.sleep("wait", Duration.ofMinutes(10));
            return ctx.step("after", () -> clock.instant());
        });
        worldflow(w);
        Instant start = clock.instant();
        RunHandle<Instant> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofMinutes(10).minusMillis(1));
        assertStaysFor(run.id(), Duration.ofMillis(300), RunStatus.SLEEPING);
        clock.advance(Duration.ofMillis(1));
        Instant after = run.result(WAIT);
        assertThat(after).isAfterOrEqualTo(start.plus(Duration.ofMinutes(10)));
        TimerScheduled scheduled = eventsOf(run.id(), TimerScheduled.class).getFirst();
        assertThat(scheduled.fireAt()).isEqualTo(start.plus(Duration.ofMinutes(10)));
        assertThat(eventsOf(run.id(), TimerFired.class))
                .singleElement()
                .satisfies(f -> assertThat(f.at()).isAfterOrEqualTo(scheduled.fireAt()));
    }

    @Test
    void aConditionIsPolledWithGrowingPausesHoldingNoThreadAndNoCheckRunsTwice() {
        Workflow<String, String> w = Workflow.define(
                "tck.condition",
                String.class,
                (ctx, in) -> ctx.awaitCondition("shipped", Duration.ofSeconds(1), Duration.ofSeconds(3), () -> {
                    int check = bump("check");
                    return check < 4 ? null : "shipped after " + check + " checks";
                }));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitEvent(run.id(), TimerScheduled.class);
        awaitStatus(run.id(), RunStatus.SLEEPING);
        restart(w); // the checks made so far are not made again
        List<Duration> pauses = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
        for (int i = 0; i < pauses.size(); i++) {
            int scheduled = i + 2;
            assertThat(count("check")).isEqualTo(i + 1);
            clock.advance(pauses.get(i).minusMillis(1));
            assertStaysFor(run.id(), Duration.ofMillis(50), RunStatus.SLEEPING);
            clock.advance(Duration.ofMillis(1));
            if (i < pauses.size() - 1) {
                awaitRun(
                        run.id(),
                        "sleeping its next pause",
                        r -> r.status() == RunStatus.SLEEPING
                                && eventsOf(r.runId(), TimerScheduled.class).size() == scheduled);
            }
        }

        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("shipped after 4 checks");
        assertThat(count("check")).isEqualTo(4);
        List<TimerScheduled> timers = eventsOf(run.id(), TimerScheduled.class);
        assertThat(timers).extracting(TimerScheduled::name).containsOnly("shipped-pause");
        assertThat(timers)
                .extracting(t -> Duration.between(t.at(), t.fireAt()))
                .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
        assertThat(eventsOf(run.id(), StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactly("shipped", "shipped~2", "shipped~3", "shipped~4");
    }

    @Test
    void aConditionsCheckTakesItsOwnRetryPolicySoAServiceDownForAWhileDoesNotEndTheWait() {
        Workflow<String, String> w = Workflow.define("tck.condition-retried", String.class, (ctx, in) -> {
            StepOptions patient = StepOptions.retry(RetryPolicy.fixed(6, Duration.ofMillis(1)));
            return ctx.awaitCondition("ready", Duration.ofSeconds(1), Duration.ofSeconds(1), patient, () -> {
                int call = bump("flaky");
                if (call <= 4) {
                    throw new java.io.IOException("HTTP 503 (call " + call + ")");
                }
                return "ready at call " + call;
            });
        });
        worldflow(w);

        RunHandle<String> run = wf.start(w, "x");
        // each retry waits its backoff on the run's clock: moved on until the five calls are made
        long end = System.nanoTime() + WAIT.toNanos();
        while (count("flaky") < 5 && System.nanoTime() < end) {
            clock.advance(Duration.ofMillis(1));
            pause(10);
        }
        assertThat(run.result(WAIT)).isEqualTo("ready at call 5");
        assertThat(count("flaky")).isEqualTo(5);
    }

    @Test
    void aConditionWithPausesThatMakeNoSenseIsRefused() {
        Workflow<String, String> w = Workflow.define("tck.condition-bad", String.class, (ctx, in) -> {
            try {
                return ctx.awaitCondition("c", Duration.ofSeconds(2), Duration.ofSeconds(1), () -> "x");
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        worldflow(w);

        assertThat(wf.start(w, "x").result(WAIT))
                .contains("firstPause")
                .contains("PT2S")
                .contains("PT1S");
    }

    @Test
    void aTimerSurvivesARestartAndFiresOnce() {
        Workflow<String, String> w = Workflow.define("tck.timer-restart", String.class, (ctx, in) -> {
            ctx.sleep("long", Duration.ofDays(3));
            return ctx.step("done", () -> "woke" + bump("done"));
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        restart(w);
        clock.advance(Duration.ofDays(3));
        assertThat(wf.handle(run.id(), String.class).result(WAIT)).isEqualTo("woke1");
        assertThat(eventsOf(run.id(), TimerFired.class)).hasSize(1);
    }

    @Test
    void aDelayedStartWaitsForItsTime() {
        Workflow<String, String> w =
                Workflow.define("tck.delayed", String.class, (ctx, in) -> ctx.step("go", () -> in));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "later", StartOptions.defaults().withDelay(Duration.ofMinutes(5)));
        assertStaysFor(run.id(), Duration.ofMillis(300), RunStatus.PENDING);
        clock.advance(Duration.ofMinutes(5));
        assertThat(run.result(WAIT)).isEqualTo("later");
    }

    @Test
    void aDelayedStartDueSoonIsClaimedAheadButStartsNoEarlier() {
        Workflow<String, String> w = Workflow.define(
                "tck.delayed-soon",
                String.class,
                (ctx, in) -> ctx.step("go", () -> in + "@" + clock.instant().equals(startAt)));
        worldflow(w);
        startAt = clock.instant().plusMillis(20); // within the worker's lookahead: claimed at once
        RunHandle<String> run = wf.start(w, "soon", StartOptions.defaults().withDelay(Duration.ofMillis(20)));
        assertStaysFor(run.id(), Duration.ofMillis(300), RunStatus.PENDING);
        clock.advance(Duration.ofMillis(19));
        assertStaysFor(run.id(), Duration.ofMillis(200), RunStatus.PENDING);
        clock.advance(Duration.ofMillis(1));
        assertThat(run.result(WAIT)).isEqualTo("soon@true");
    }

    private volatile Instant startAt;

    @Test
    void startingWithAnExistingIdReturnsTheExistingRun() {
        Workflow<String, String> w =
                Workflow.define("tck.idempotent", String.class, (ctx, in) -> ctx.step("once", () -> in + bump("once")));
        worldflow(w);
        RunHandle<String> first = wf.start(w, "a", StartOptions.id("order-42"));
        RunHandle<String> second = wf.start(w, "b", StartOptions.id("order-42"));
        assertThat(second.id()).isEqualTo(first.id());
        assertThat(first.result(WAIT)).isEqualTo("a1");
        assertThat(second.result(WAIT)).isEqualTo("a1");
        assertThat(count("once")).isEqualTo(1);
    }

    @Test
    void aSignalSentBeforeTheWaitIsBufferedAndConsumed() {
        Workflow<String, String> w = Workflow.define(
                "tck.signal-early",
                String.class,
                (ctx, in) -> ctx.awaitSignal("approval", String.class, Duration.ofDays(1))
                        .orElse("timeout"));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x", StartOptions.defaults().withDelay(Duration.ofMinutes(1)));
        wf.signal(run.id(), "approval", "yes");
        clock.advance(Duration.ofMinutes(1));
        assertThat(run.result(WAIT)).isEqualTo("yes");
        assertThat(eventsOf(run.id(), SignalReceived.class))
                .singleElement()
                .satisfies(s -> assertThat(s.name()).isEqualTo("approval"));
        assertThat(world.signals().pending(run.id())).isEmpty();
    }

    @Test
    void aWaitingRunWakesWhenItsSignalArrives() {
        Workflow<String, String> w = Workflow.define("tck.signal-wait", String.class, (ctx, in) -> {
            String got = ctx.awaitSignal("go", String.class);
            return ctx.step("after", () -> got.toUpperCase());
        });
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.WAITING);
        wf.signal(run.id(), "go", "now");
        assertThat(run.result(WAIT)).isEqualTo("NOW");
    }

    @Test
    void signalsOfOneNameAreConsumedInArrivalOrder() {
        Workflow<String, List<String>> w = Workflow.define("tck.signal-order", String.class, (ctx, in) -> {
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                got.add(ctx.awaitSignal("item", String.class));
            }
            return got;
        });
        worldflow(w);
        RunHandle<List<String>> run = wf.start(w, "x", StartOptions.defaults().withDelay(Duration.ofMinutes(1)));
        wf.signal(run.id(), "item", "first");
        wf.signal(run.id(), "other", "ignored");
        wf.signal(run.id(), "item", "second");
        wf.signal(run.id(), "item", "third");
        clock.advance(Duration.ofMinutes(1));
        assertThat(run.result(WAIT)).containsExactly("first", "second", "third");
        assertThat(world.signals().pending(run.id())).extracting(s -> s.name()).containsExactly("other");
    }

    @Test
    void aSignalWaitTimesOut() {
        Workflow<String, String> w = Workflow.define(
                "tck.signal-timeout",
                String.class,
                (ctx, in) -> ctx.awaitSignal("approval", String.class, Duration.ofHours(2))
                        .orElse("timed out"));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.WAITING);
        clock.advance(Duration.ofHours(2));
        assertThat(run.result(WAIT)).isEqualTo("timed out");
        assertThat(eventsOf(run.id(), SignalTimedOut.class)).hasSize(1);
    }

    @Test
    void aFailingStepIsRetriedWithBackoffHoldingNoTurn() {
        AtomicInteger calls = new AtomicInteger();
        Workflow<String, String> w = Workflow.define(
                "tck.retry",
                String.class,
                (ctx, in) -> ctx.step("flaky", StepOptions.retry(RetryPolicy.fixed(3, Duration.ofMinutes(1))), () -> {
                    if (calls.incrementAndGet() < 3) {
                        throw new IllegalStateException("try again");
                    }
                    return "ok after " + ctx.attempt();
                }));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        assertThat(calls).hasValue(1);
        clock.advance(Duration.ofMinutes(1));
        awaitRun(
                run.id(),
                "retrying twice",
                r -> eventsOf(run.id(), StepRetrying.class).size() == 2);
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofMinutes(1));
        assertThat(run.result(WAIT)).isEqualTo("ok after 3");
        assertThat(eventsOf(run.id(), StepRetrying.class))
                .extracting(StepRetrying::attempt)
                .containsExactly(1, 2);
        assertThat(eventsOf(run.id(), StepCompleted.class))
                .singleElement()
                .satisfies(c -> assertThat(c.attempt()).isEqualTo(3));
    }

    @Test
    void stepsSeeTheirIdempotencyKey() {
        Workflow<String, String> w =
                Workflow.define("tck.key", String.class, (ctx, in) -> ctx.step("charge", ctx::idempotencyKey));
        worldflow(w);
        RunHandle<String> run = wf.start(w, "x", StartOptions.id("run-key"));
        assertThat(run.result(WAIT)).isEqualTo("run-key:charge:1");
    }

    @Test
    void parallelBranchesGetTheirOwnIdsAndResultsKeepItemOrder() {
        Workflow<List<String>, List<String>> w = Workflow.define(
                "tck.parallel",
                castList(),
                (ctx, items) ->
                        ctx.parallel("labels", items, (branch, item) -> branch.step("label", () -> "L-" + item)));
        worldflow(w);
        RunHandle<List<String>> run = wf.start(w, List.of("a", "b", "c", "d", "e"));
        assertThat(run.result(WAIT)).containsExactly("L-a", "L-b", "L-c", "L-d", "L-e");
        assertThat(eventsOf(run.id(), StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactlyInAnyOrder(
                        "labels/0/label", "labels/1/label", "labels/2/label", "labels/3/label", "labels/4/label");
        assertThat(eventsOf(run.id(), ParallelStarted.class))
                .singleElement()
                .satisfies(p -> assertThat(p.branches()).isEqualTo(5));
        assertThat(eventsOf(run.id(), ParallelCompleted.class)).hasSize(1);
    }

    @Test
    void parallelRespectsItsConcurrencyLimit() {
        AtomicInteger now = new AtomicInteger();
        AtomicInteger max = new AtomicInteger();
        Workflow<List<String>, List<String>> w = Workflow.define(
                "tck.parallel-limit",
                castList(),
                (ctx, items) -> ctx.parallel(
                        "work",
                        items,
                        ParallelOptions.maxConcurrency(2),
                        (branch, item) -> branch.step("w", () -> {
                            max.accumulateAndGet(now.incrementAndGet(), Math::max);
                            Thread.sleep(20);
                            now.decrementAndGet();
                            return item;
                        })));
        worldflow(w);
        RunHandle<List<String>> run = wf.start(w, List.of("1", "2", "3", "4", "5", "6"));
        assertThat(run.result(WAIT)).containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(max.get()).isLessThanOrEqualTo(2);
    }

    @Test
    void aBranchThatSleepsResumesAfterTheTimer() {
        Workflow<List<String>, List<String>> w = Workflow.define(
                "tck.parallel-sleep",
                castList(),
                (ctx, items) -> ctx.parallel("p", items, (branch, item) -> {
                    if (item.equals("slow")) {
                        branch.sleep("wait", Duration.ofHours(1));
                    }
                    return branch.step("s", () -> item + bump(item));
                }));
        worldflow(w);
        RunHandle<List<String>> run = wf.start(w, List.of("fast", "slow"));
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofHours(1));
        assertThat(run.result(WAIT)).containsExactly("fast1", "slow1");
        assertThat(count("fast")).isEqualTo(1);
    }

    @Test
    void recordedValuesAreTheSameOnReplay() {
        Workflow<String, Map<String, String>> w = Workflow.define("tck.markers", String.class, (ctx, in) -> {
            Instant t = ctx.now();
            UUID id = ctx.uuid();
            long r = ctx.random().nextLong();
            String side = ctx.sideEffect("side", () -> "v" + bump("side"));
            ctx.sleep("nap", Duration.ofMinutes(1));
            return Map.of(
                    "t",
                    t.toString(),
                    "id",
                    id.toString(),
                    "r",
                    Long.toString(r),
                    "side",
                    side,
                    "replayed",
                    Boolean.toString(count("side") == 1));
        });
        worldflow(w);
        RunHandle<Map<String, String>> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofMinutes(1));
        Map<String, String> out = run.result(WAIT);
        assertThat(out.get("side")).isEqualTo("v1");
        assertThat(count("side")).isEqualTo(1);
        assertThat(out.get("t")).isEqualTo(ManualClockStart.START);
    }

    @Test
    void versionIsMaxForNewRuns() {
        Workflow<String, Integer> w = Workflow.define("tck.version", String.class, (ctx, in) -> {
            int v = ctx.version("new-pricing", 1, 2);
            ctx.sleep("nap", Duration.ofMinutes(1));
            return v + 10 * ctx.version("new-pricing", 1, 2);
        });
        worldflow(w);
        RunHandle<Integer> run = wf.start(w, "x");
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofMinutes(1));
        assertThat(run.result(WAIT)).isEqualTo(22);
    }

    /**
     * A run that passed the place of a change before the change was deployed follows the old code there: the oldest
     * version, at that place and at every later call of the same change, in this turn and after its next replay; a run
     * that reaches the change first under the new code records the newest.
     */
    @Test
    void aRunFromBeforeAChangeKeepsTheOldestVersionThroughoutAndANewRunTheNewest() {
        Workflow<String, String> before = Workflow.define("tck.version.change", String.class, (ctx, in) -> {
            String a = ctx.step("a", () -> "a");
            ctx.sleep("nap", Duration.ofMinutes(1));
            ctx.sleep("nap2", Duration.ofMinutes(1));
            return a + ctx.step("b", () -> "b");
        });
        Workflow<String, String> after = Workflow.define("tck.version.change", String.class, (ctx, in) -> {
            int first = ctx.version("fix", 1, 2);
            String a = ctx.step("a", () -> "a");
            ctx.sleep("nap", Duration.ofMinutes(1));
            int second = ctx.version("fix", 1, 2);
            ctx.sleep("nap2", Duration.ofMinutes(1));
            int third = ctx.version("fix", 1, 2);
            return a + first + second + third + ctx.step("b", () -> "b");
        });
        worldflow(before);
        String old = wf.start(before, "x").id();
        awaitStatus(old, RunStatus.SLEEPING);

        restart(after);
        clock.advance(Duration.ofMinutes(1));
        sleepingIn(old, 2); // past the second call, in nap2
        restart(after); // the next turn replays the second call too
        clock.advance(Duration.ofMinutes(1));

        assertThat(wf.handle(old, String.class).result(WAIT)).isEqualTo("a111b");
        assertThat(eventsOf(old, MarkerRecorded.class)).isEmpty();
        String fresh = wf.start(after, "y").id();
        sleepingIn(fresh, 1);
        clock.advance(Duration.ofMinutes(1));
        sleepingIn(fresh, 2);
        clock.advance(Duration.ofMinutes(1));
        assertThat(wf.handle(fresh, String.class).result(WAIT)).isEqualTo("a222b");
        assertThat(eventsOf(fresh, MarkerRecorded.class))
                .extracting(MarkerRecorded::markerId)
                .containsExactly("@version:fix");
    }

    /** Waits until the run sleeps in its {@code timers}th timer. */
    private void sleepingIn(String runId, int timers) {
        awaitRun(
                runId,
                "sleeping in timer " + timers,
                r -> r.status() == RunStatus.SLEEPING
                        && eventsOf(runId, TimerScheduled.class).size() == timers);
    }

    @Test
    void aRecordedVersionTheCodeNoLongerSupportsHoldsTheRunNamingTheChangeAndTheRange() {
        Workflow<String, Integer> v2 = Workflow.define("tck.version.dropped", String.class, (ctx, in) -> {
            int v = ctx.version("fix", 1, 2);
            ctx.sleep("nap", Duration.ofMinutes(1));
            return v;
        });
        Workflow<String, Integer> v3 = Workflow.define("tck.version.dropped", String.class, (ctx, in) -> {
            int v = ctx.version("fix", 3, 3);
            ctx.sleep("nap", Duration.ofMinutes(1));
            return v;
        });
        worldflow(v2);
        String run = wf.start(v2, "x").id();
        awaitStatus(run, RunStatus.SLEEPING);
        long events = world.eventLog().read(run, 0).size();

        restart(v3);
        clock.advance(Duration.ofMinutes(1));

        RunInfo held = awaitRun(run, "held", RunInfo::isHeld);
        assertThat(held.held().type()).isEqualTo(NonDeterministicWorkflowException.class.getName());
        assertThat(held.held().message()).contains("'fix'").contains("is 2").contains("3..3");
        assertThat(held.status()).isNotIn(RunStatus.FAILED, RunStatus.COMPLETED);
        assertThat(world.eventLog().read(run, 0)).hasSize((int) events);

        restart(v2);
        clock.advance(Duration.ofMinutes(1));
        assertThat(wf.handle(run, Integer.class).result(WAIT)).isEqualTo(2);
    }

    @Test
    void signalPayloadsAreTyped() {
        Workflow<String, Item> w = Workflow.define(
                "tck.signal-typed",
                String.class,
                (ctx, in) -> ctx.awaitSignal("item", Item.class, Duration.ofMinutes(5))
                        .map(i -> new Item(i.name(), i.qty() * 2))
                        .orElse(null));
        worldflow(w);
        RunHandle<Item> run = wf.start(w, "x");
        wf.signal(run.id(), "item", new Item("pen", 21));
        assertThat(run.result(WAIT)).isEqualTo(new Item("pen", 42));
        Optional<SignalReceived> rec =
                eventsOf(run.id(), SignalReceived.class).stream().findFirst();
        assertThat(rec).isPresent();
        assertThat(rec.get().payload().json()).contains("\"pen\"");
    }

    @Test
    void aSignalSentWithoutAPayloadReadsAsNullAndADeclaredTypeRefusesIt() {
        Workflow<String, String> w = Workflow.define("tck.signal-empty", String.class, (ctx, in) -> {
            Item first = ctx.awaitSignal("ping", Item.class);
            return "got " + (first == null ? "nothing" : first.name());
        });
        Workflow<String, String> typed = Workflow.define("tck.signal-empty-typed", String.class, (ctx, in) -> {
                    Item item = ctx.awaitSignal("item", Item.class);
                    return "got " + item.name();
                })
                .withSignalType("item", Item.class);
        worldflow(w, typed);
        RunHandle<String> run = wf.start(w, "x");
        RunHandle<String> declared = wf.start(typed, "y");
        awaitStatus(declared.id(), RunStatus.WAITING);

        wf.signal(run.id(), "ping", null);
        assertThat(run.result(WAIT)).isEqualTo("got nothing");
        assertThatThrownBy(() -> wf.signal(declared.id(), "item", null))
                .isInstanceOf(io.worldflow.SerializationException.class)
                .hasMessageContaining("declared as " + Item.class.getName())
                .hasMessageContaining("no payload");
        wf.signal(declared.id(), "item", new Item("pen", 1));
        assertThat(declared.result(WAIT)).isEqualTo("got pen");
    }

    @Test
    void aRunAddressedByABlankOrOversizedIdIsAnArgumentErrorNotARunNotFound() {
        worldflow();
        String tooLong = "r".repeat(StartOptions.MAX_ID_LENGTH + 1);
        for (String id : List.of(" ", "", tooLong)) {
            List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls = List.of(
                    () -> wf.signal(id, "go", "x"),
                    () -> wf.cancel(id),
                    () -> wf.terminate(id, "no"),
                    () -> wf.retry(id, "no"),
                    () -> wf.handle(id, String.class));
            for (var call : calls) {
                assertThatThrownBy(call)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("a run id is 1.." + StartOptions.MAX_ID_LENGTH + " characters");
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    protected static Class<List<String>> castList() {
        return (Class) List.class;
    }

    /** The start instant of {@link io.worldflow.runtime.ManualClock#start()}. */
    static final class ManualClockStart {
        static final String START = "2030-01-01T00:00:00Z";
    }
}
