package io.worldflow.tck;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Base of the end-to-end contracts: a {@link Worldflow} with a worker over the world under test,
 * driven by the manual clock. Waiting is for the worker's real progress only, bounded by a timeout.
 */
public abstract class WorkflowContractSupport extends WorldContract {

    protected static final Duration WAIT = Duration.ofSeconds(20);

    /** Counters shared between workflow code and assertions, keyed by name. */
    protected final ConcurrentHashMap<String, AtomicInteger> counters = new ConcurrentHashMap<>();

    protected Worldflow wf;

    protected WorkflowContractSupport(WorldConformanceKit kit) {
        super(kit);
    }

    /** Worker options for tests: no JVM hook, quick fallback polling, short grace. */
    protected WorkerOptions workerOptions() {
        return WorkerOptions.defaults()
                .withHandleSigterm(false)
                .withPollInterval(Duration.ofMillis(50))
                .withShutdownGrace(Duration.ofSeconds(2))
                .withWorkerId("tck-" + storageId());
    }

    /** Builds a Worldflow over the current world with these workflows and starts its worker. */
    protected Worldflow worldflow(Workflow<?, ?>... workflows) {
        Worldflow.Builder b = Worldflow.builder().world(world).clock(clock);
        for (Workflow<?, ?> w : workflows) {
            b.register(w);
        }
        wf = b.build();
        wf.startWorker(workerOptions());
        return wf;
    }

    /** Stops the worker and the world, opens the world again over the same storage, with these workflows. */
    protected Worldflow restart(Workflow<?, ?>... workflows) {
        wf.close();
        world = open();
        return worldflow(workflows);
    }

    @AfterEach
    void closeWorldflow() {
        if (wf != null) {
            wf.close();
        }
    }

    protected int count(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicInteger()).get();
    }

    protected int bump(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    /** Waits (real time, bounded) until the run's projection satisfies {@code condition}. */
    protected RunInfo awaitRun(String runId, String what, Predicate<RunInfo> condition) {
        long end = System.nanoTime() + WAIT.toNanos();
        RunInfo last = null;
        while (System.nanoTime() < end) {
            last = world.runQueries().get(runId).orElse(null);
            if (last != null && condition.test(last)) {
                return last;
            }
            pause(5);
        }
        return fail("run " + runId + " did not become " + what + " within " + WAIT + "; last seen " + last + "; events "
                + types(runId));
    }

    protected RunInfo awaitStatus(String runId, RunStatus status) {
        return awaitRun(runId, status.name(), r -> r.status() == status);
    }

    /** Waits until the run's log holds an event of this type. */
    protected void awaitEvent(String runId, Class<? extends Event> type) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            if (world.eventLog().read(runId, 0).stream().anyMatch(type::isInstance)) {
                return;
            }
            pause(5);
        }
        fail("run " + runId + " has no " + type.getSimpleName() + " within " + WAIT + "; events " + types(runId));
    }

    /** Asserts that nothing changes about the run for a short while (for "not before" checks). */
    protected void assertStaysFor(String runId, Duration d, RunStatus status) {
        long events = world.eventLog().read(runId, 0).size();
        long end = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < end) {
            assertThat(world.runQueries().get(runId).orElseThrow().status()).isEqualTo(status);
            pause(10);
        }
        assertThat(world.eventLog().read(runId, 0)).hasSize((int) events);
    }

    protected List<String> types(String runId) {
        List<String> out = new ArrayList<>();
        for (Event e : world.eventLog().read(runId, 0)) {
            out.add(e.type());
        }
        return out;
    }

    protected <E extends Event> List<E> eventsOf(String runId, Class<E> type) {
        return world.eventLog().read(runId, 0).stream()
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    protected static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected static Set<RunStatus> terminal() {
        return Set.of(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED);
    }
}
