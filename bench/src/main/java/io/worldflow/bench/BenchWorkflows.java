package io.worldflow.bench;

import io.worldflow.DurableFuture;
import io.worldflow.Workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The workflows of the benchmarks, registered by the driver and by the worker JVM alike. Every input is
 * an {@code Integer}, so that the worker's control channel can start them from a line of text.
 */
public final class BenchWorkflows {

    /** noop3: three sequential steps, step n returns {"i": n}; the workflow returns the last. */
    public static final Workflow<Integer, Map<String, Integer>> NOOP3 =
            Workflow.define("bench.noop3", Integer.class, (ctx, in) -> {
                ctx.step("s1", () -> Map.of("i", 1));
                ctx.step("s2", () -> Map.of("i", 2));
                return ctx.step("s3", () -> Map.of("i", 3));
            });

    /** W3: one parallel fan-out of {@code branches} no-op steps. */
    public static final Workflow<Integer, Integer> FANOUT =
            Workflow.define("bench.fanout", Integer.class, (ctx, branches) -> {
                List<Integer> items = IntStream.range(0, branches).boxed().toList();
                List<Integer> out = ctx.parallel("fan", items, (branch, i) -> branch.step("noop", () -> i));
                return out.size();
            });

    /** W5: a parent of {@code children} child runs of {@link #NOOP3}, started side by side. */
    public static final Workflow<Integer, Integer> CHILDREN =
            Workflow.define("bench.children", Integer.class, (ctx, children) -> {
                List<Integer> items = IntStream.range(0, children).boxed().toList();
                List<Map<String, Integer>> out =
                        ctx.parallel("kids", items, (branch, i) -> branch.child("kid", NOOP3, i));
                return out.size();
            });

    /** W6: a wait for signal {@code go} raced against a one-hour timer; the input when the signal wins. */
    public static final Workflow<Integer, Integer> RACE = Workflow.define("bench.race", Integer.class, (ctx, i) -> {
        DurableFuture<Long> go = ctx.signalAsync("go", Long.class);
        DurableFuture<Void> limit = ctx.timer("limit", Duration.ofHours(1));
        return ctx.race("first", go, limit) == go ? i : -1;
    });

    /**
     * LOOP: one step, then the run continues as new with one fewer to go; its chain's runs are {@code <id>~2},
     * {@code <id>~3}, … up to {@code <id>~<remaining>}.
     */
    public static final Workflow<Integer, Integer> LOOP =
            Workflow.define("bench.loop", Integer.class, Integer.class, (ctx, remaining) -> {
                int left = ctx.step("tick", () -> remaining);
                return left <= 1 ? left : ctx.continueAsNew(left - 1);
            });

    /**
     * W4: step {@code a} returns wall-clock ms tA, a durable sleep of {@code sleepMs}, step {@code b} returns
     * the lateness {@code now − tA − sleepMs} in ms, which is the run's result.
     */
    public static final Workflow<Integer, Long> SLEEP =
            Workflow.define("bench.sleep", Integer.class, (ctx, sleepMs) -> {
                long ta = ctx.step("a", System::currentTimeMillis);
                ctx.sleep("nap", Duration.ofMillis(sleepMs));
                return ctx.step("b", () -> System.currentTimeMillis() - ta - sleepMs);
            });

    /** Scale: {@code n} sequential no-op steps. */
    public static final Workflow<Integer, Integer> STEPS = Workflow.define("bench.steps", Integer.class, (ctx, n) -> {
        int last = 0;
        for (int i = 0; i < n; i++) {
            int v = i;
            last = ctx.step("s", () -> v);
        }
        return last;
    });

    /** The signal that resumes {@link #HISTORY}. */
    static final String HISTORY_SIGNAL = "go";

    /**
     * Scale: a history of {@code steps} steps (3 events each), then a wait for the signal {@code go}, whose
     * payload is the sender's wall clock in epoch microseconds; the run has left memory by then (a wait for a
     * signal ends its turn). The last step returns how long after the send it ran, in ms: the resume of the
     * whole history (signal, lease, read, decode, replay) plus one step.
     */
    public static final Workflow<Integer, Double> HISTORY =
            Workflow.define("bench.history", Integer.class, (ctx, steps) -> {
                for (int i = 0; i < steps; i++) {
                    int v = i;
                    ctx.step("s", () -> v);
                }
                long sentMicros = ctx.awaitSignal(HISTORY_SIGNAL, Long.class);
                return ctx.step("resumed", () -> (epochMicros() - sentMicros) / 1_000.0);
            });

    /** The wall clock in epoch microseconds (the same clock in every process of this machine). */
    static long epochMicros() {
        return micros(Instant.now());
    }

    /** {@code at} in epoch microseconds. */
    static long micros(Instant at) {
        return at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000;
    }

    /** Scale: a run that sleeps {@code minutes} and then ends. */
    public static final Workflow<Integer, Integer> SLEEPER =
            Workflow.define("bench.sleeper", Integer.class, (ctx, minutes) -> {
                ctx.sleep("long-nap", Duration.ofMinutes(minutes));
                return minutes;
            });

    /**
     * W7 and W8: one step that returns the input. The step's {@code StepScheduled} is the first event the run's first
     * turn writes, so its time is when the run began to execute.
     */
    public static final Workflow<Integer, Integer> TICK =
            Workflow.define("bench.tick", Integer.class, (ctx, i) -> ctx.step("tick", () -> i));

    static final List<Workflow<Integer, ?>> ALL =
            List.of(NOOP3, FANOUT, CHILDREN, RACE, LOOP, SLEEP, STEPS, HISTORY, SLEEPER, TICK);

    private BenchWorkflows() {}
}
