package io.worldflow.tck;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.StepCompleted;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several workers over one world: they share the runs, a run whose worker stopped renewing its lease
 * is resumed by another, and the first worker's late writes are fenced off by the log's expected sequence.
 */
public abstract class WorkerContract extends WorkflowContractSupport {

    protected WorkerContract(WorldConformanceKit kit) {
        super(kit);
    }

    private final List<Worldflow> others = new ArrayList<>();

    /** Another worker over the same world (as another process would be), with its own id. */
    protected Worldflow anotherWorker(String name, Workflow<?, ?>... workflows) {
        Worldflow.Builder b = Worldflow.builder().world(new SharedWorld(world)).clock(clock);
        for (Workflow<?, ?> w : workflows) {
            b.register(w);
        }
        Worldflow other = b.build();
        other.startWorker(workerOptions().withWorkerId("tck-" + name));
        others.add(other);
        return other;
    }

    @AfterEach
    void closeOthers() {
        others.forEach(Worldflow::close);
    }

    @Test
    void twoWorkersShareTheRunsAndEachStepCompletesOnce() {
        Workflow<Integer, Integer> w = Workflow.define("tck.shared", Integer.class, (ctx, n) -> {
            int a = ctx.step("a", () -> n);
            int b = ctx.step("b", () -> a * 2);
            return ctx.step("c", () -> b + 1);
        });
        worldflow(w);
        anotherWorker("b", w);
        List<RunHandle<Integer>> runs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            runs.add(wf.start(w, i));
        }
        for (int i = 0; i < runs.size(); i++) {
            assertThat(runs.get(i).result(WAIT)).isEqualTo(i * 2 + 1);
            Map<String, Integer> completions = new HashMap<>();
            for (StepCompleted c : eventsOf(runs.get(i).id(), StepCompleted.class)) {
                completions.merge(c.stepId(), 1, Integer::sum);
            }
            assertThat(completions).containsOnly(Map.entry("a", 1), Map.entry("b", 1), Map.entry("c", 1));
        }
    }

    @Test
    void runsStartedBesideTheWorkerNeverExceedItsConcurrency() throws Exception {
        AtomicInteger inStep = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Workflow<Integer, Integer> w = Workflow.define(
                "tck.capacity",
                Integer.class,
                (ctx, n) -> ctx.step("hold", () -> {
                    bump("entered");
                    most.accumulateAndGet(inStep.incrementAndGet(), Math::max);
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } finally {
                        inStep.decrementAndGet();
                    }
                    return n;
                }));
        wf = Worldflow.builder().world(world).clock(clock).register(w).build();
        wf.startWorker(workerOptions().withConcurrency(2));
        List<RunHandle<Integer>> runs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            runs.add(wf.start(w, i));
        }
        long end = System.nanoTime() + WAIT.toNanos();
        while (inStep.get() < 2 && System.nanoTime() < end) {
            pause(5);
        }
        pause(300); // time for a third to start, if one could

        assertThat(most.get())
                .as("runs in their step at once, with concurrency 2")
                .isEqualTo(2);
        assertThat(count("entered")).as("runs that began their step").isEqualTo(2);
        release.countDown();
        for (int i = 0; i < runs.size(); i++) {
            assertThat(runs.get(i).result(WAIT)).isEqualTo(i);
        }
        assertThat(most.get()).isEqualTo(2);
    }

    /**
     * A test that moves the clock far past the lease in the middle of a step: the worker's lease lapses by the clock
     * alone, the world hands the run out again, to this worker, which keeps its turn going rather than drop it.
     */
    @Test
    void timeMovedPastTheLeaseInTheMiddleOfAStepDoesNotMakeTheWorkerDropItsTurn() {
        Workflow<String, String> w = Workflow.define("tck.clock-jump", String.class, (ctx, in) -> {
            String crunched = ctx.step("crunch", () -> {
                bump("crunch");
                clock.advance(Duration.ofDays(30));
                Thread.sleep(300); // the worker polls meanwhile, and finds the run's lease lapsed
                return "crunched";
            });
            return crunched + " " + ctx.step("after", () -> bump("after"));
        });
        worldflow(w);

        assertThat(wf.start(w, "x").result(WAIT)).isEqualTo("crunched 1");
        assertThat(count("crunch")).as("the step ran once").isEqualTo(1);
    }

    @Test
    void aRunWhoseLeaseLapsedIsResumedAndTheStuckTurnIsFencedOff() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Workflow<String, String> w = Workflow.define("tck.fencing", String.class, (ctx, in) -> {
            String slow = ctx.step("slow", () -> {
                int n = bump("slow");
                if (n == 1) {
                    entered.countDown();
                    release.await(30, TimeUnit.SECONDS); // this worker hangs here, its lease lapses
                }
                return "slow" + n;
            });
            return slow + ctx.step("next", () -> "next" + bump("next"));
        });
        // its one slot holds the stuck turn: only the second worker takes the run again (a worker that takes its own
        // run again while its turn is stuck for less than a lease in real time keeps that turn going)
        wf = Worldflow.builder().world(world).clock(clock).register(w).build();
        wf.startWorker(workerOptions().withConcurrency(1));
        RunHandle<String> run = wf.start(w, "x");
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        clock.advance(Duration.ofMinutes(1)); // past the first worker's 30 s lease

        Worldflow second = anotherWorker("b", w);
        assertThat(second.handle(run.id(), String.class).result(WAIT)).isEqualTo("slow2next1");

        release.countDown(); // the stuck step returns and would write
        pause(300);
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(eventsOf(run.id(), StepCompleted.class))
                .extracting(StepCompleted::stepId)
                .containsExactly("slow", "next");
        assertThat(count("next")).as("no step ran after the fenced write").isEqualTo(1);
        assertThat(run.result(WAIT)).isEqualTo("slow2next1");
    }
}
