package io.worldflow.testing;

import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.TimelineText;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.testing.internal.TimeSkipper;
import io.worldflow.world.local.LocalWorldProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One test's world: a fresh local world in a temporary folder, a {@link ManualClock}, a worker, and the test's step
 * mocks. The {@link Worldflow} is built when first used, so a test may {@link #register} its workflows first; time
 * skips ahead by itself while every unfinished run only sleeps (see {@link WorldflowExtension}).
 */
public final class TestWorld implements AutoCloseable {

    private final Path folder;
    private final Map<String, String> properties;
    private final List<Object> workflows;
    private final boolean timeSkipping;
    private final ManualClock clock;
    private final StepMocks steps = new StepMocks();
    private Worldflow wf;
    private TimeSkipper skipper;

    TestWorld(
            Path folder,
            Map<String, String> properties,
            List<Object> workflows,
            boolean timeSkipping,
            ManualClock clock) {
        this.folder = folder;
        this.properties = new LinkedHashMap<>(properties);
        this.workflows = new ArrayList<>(workflows);
        this.timeSkipping = timeSkipping;
        this.clock = clock;
    }

    /**
     * Registers a workflow (or an object with {@code @WorkflowMethod}s) for this test.
     *
     * @throws IllegalStateException once the world has been used: register first
     */
    public TestWorld register(Object workflow) {
        Objects.requireNonNull(workflow, "workflow");
        if (wf != null) {
            throw new IllegalStateException("register workflows before the test world is first used");
        }
        workflows.add(workflow);
        return this;
    }

    /** The test's Worldflow, with its worker running; built on first use. */
    public synchronized Worldflow worldflow() {
        if (wf == null) {
            // the world opened here, not by configuration: a WORLDFLOW_WORLD or WORLDFLOW_LOCAL_PATH in the developer's
            // environment never sends a test to another world or a shared file
            World world = new LocalWorldProvider()
                    .create(new WorldContext(
                            WorldConfig.of(Map.of(
                                    LocalWorldProvider.PATH,
                                    folder.resolve("test.db").toString(),
                                    LocalWorldProvider.SYNCHRONOUS,
                                    "NORMAL")),
                            clock,
                            new JsonCodec().eventCodec()));
            Worldflow.Builder b = Worldflow.builder()
                    .world(world)
                    .clock(clock)
                    .properties(properties)
                    .interceptSteps(steps.interceptor());
            workflows.forEach(b::register);
            wf = b.build();
            // no run stays in memory waiting for a near time: each suspends, so the clock sees it sleep and skips
            wf.startWorker(WorkerOptions.defaults()
                    .withHandleSigterm(false)
                    .withPollInterval(Duration.ofMillis(20))
                    .withShutdownGrace(Duration.ofSeconds(2))
                    .withStickyWait(Duration.ZERO)
                    .withWorkerId("test"));
            if (timeSkipping) {
                skipper = new TimeSkipper(wf, clock);
                skipper.start();
            }
        }
        return wf;
    }

    public ManualClock clock() {
        return clock;
    }

    /** The steps' calls, and answers given in place of their code. */
    public StepMocks steps() {
        return steps;
    }

    public <I, O> RunHandle<O> start(Workflow<I, O> workflow, I input) {
        return worldflow().start(workflow, input);
    }

    public <I, O> RunHandle<O> start(Workflow<I, O> workflow, I input, StartOptions options) {
        return worldflow().start(workflow, input, options);
    }

    /** Sends a signal to a run, as a client would. */
    public void signal(String runId, String name, Object value) {
        worldflow().signal(runId, name, value);
    }

    /**
     * Waits (real time, at most {@code timeout}) until the run has {@code status}.
     *
     * @throws RunNotFoundException when there is no such run
     * @throws AssertionError       naming its last status and its timeline when it does not get there in time
     */
    public RunInfo awaitStatus(String runId, RunStatus status, Duration timeout) {
        Objects.requireNonNull(status, "status");
        long end = System.nanoTime() + timeout.toNanos();
        RunInfo last = worldflow().run(runId).orElseThrow(() -> new RunNotFoundException(runId));
        while (last.status() != status) {
            if (System.nanoTime() > end) {
                throw new AssertionError("run " + runId + " did not become " + status + " within " + timeout
                        + "; it is " + last.status() + ":\n" + TimelineText.render(wf.events(runId)));
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for run " + runId, e);
            }
            last = wf.run(runId).orElseThrow(() -> new RunNotFoundException(runId));
        }
        return last;
    }

    /** The run's events. */
    public List<Event> timeline(String runId) {
        return worldflow().events(runId);
    }

    /** Every run of this world with its status and its timeline, as a test's failure prints them. */
    public String timelines() {
        if (wf == null) {
            return "(no run: the test world was not used)\n";
        }
        StringBuilder out = new StringBuilder();
        for (RunInfo r : wf.runs(RunQuery.all().withLimit(200)).runs()) {
            out.append("run ")
                    .append(r.runId())
                    .append(" (")
                    .append(r.workflow())
                    .append(") ")
                    .append(r.status())
                    .append(r.isHeld() ? ", held: " + r.held().summary() : "")
                    .append('\n');
            out.append(TimelineText.render(wf.events(r.runId())));
        }
        return out.toString();
    }

    @Override
    public void close() {
        if (skipper != null) {
            skipper.close();
        }
        if (wf != null) {
            wf.close();
        }
    }
}
