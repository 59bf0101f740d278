package io.worldflow.runtime.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.StepInterceptor;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.Lease;
import io.worldflow.spi.SearchValues;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a workflow's current code against a saved history, as a worker's turn would, with no world: the run's
 * execution is the worker's own (the same determinism checks, the same replay of every primitive), given an engine
 * that writes nothing and stops wherever the code would go live ({@link Replay}).
 */
public final class ReplayRun {

    /** What the replay found: its verdict (MATCHED, CAUGHT_UP, DIVERGED) and why, or null with what stopped it. */
    public record Found(String verdict, String detail) {}

    private ReplayRun() {}

    /**
     * Replays {@code events}, a whole log from its {@code WorkflowStarted}, with {@code workflow}'s code; the clock
     * stands at the history's last event, so timers not due by then wait, as they did.
     */
    public static Found replay(
            Workflow<Object, Object> workflow, List<Event> events, JsonCodec codec, Duration timeout) {
        History history = History.of(events);
        WorkflowStarted started = history.started();
        ManualClock clock = new ManualClock(events.getLast().at());
        Replay replay = new Replay(events);
        Registry registry = new Registry();
        registry.register(workflow);
        try (ClockScheduler scheduler = new ClockScheduler(clock)) {
            Engine engine = new Engine(
                    null,
                    codec,
                    clock,
                    scheduler,
                    null,
                    registry,
                    null,
                    null,
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    StepInterceptor.none(),
                    replay,
                    Telemetry.OFF);
            Lease lease = new Lease(started.runId(), "replay", StartOptions.DEFAULT_QUEUE, clock.instant(), 1);
            RunExecution exec = new RunExecution(engine, lease, info(started, events), workflow, history);
            exec.start();
            RunExecution.Outcome outcome;
            try {
                outcome = exec.threads.done().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                exec.threads.abort("replay timed out");
                exec.threads.interrupt();
                return new Found(null, "the code did not reach the end of the history within " + timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exec.threads.abort("replay interrupted");
                return new Found(null, "interrupted");
            } catch (ExecutionException e) {
                return new Found(null, "the replay failed: " + e.getCause());
            }
            if (replay.verdict() == null) {
                return new Found(null, "the code stopped (" + outcome + ") without reaching a verdict; see the log");
            }
            return new Found(replay.verdict().name(), replay.detail());
        }
    }

    /** The run as a worker would have read it at the start of a turn over this history. */
    private static RunInfo info(WorkflowStarted started, List<Event> events) {
        RunInfo.CancelRequest cancel = null;
        for (Event e : events) {
            if (e instanceof WorkflowCancelRequested c) {
                cancel = new RunInfo.CancelRequest(c.reason(), c.requestedAt(), c.terminate(), c.actor());
            }
        }
        SearchAttributes attributes = SearchValues.apply(
                SearchAttributes.empty(), started.searchAttributes() == null ? List.of() : started.searchAttributes());
        return new RunInfo(
                started.runId(),
                started.workflow(),
                RunStatus.RUNNING,
                started.input(),
                null,
                null,
                started.at(),
                events.getLast().at(),
                started.at(),
                started.deadline(),
                StartOptions.DEFAULT_QUEUE,
                0,
                events.size(),
                cancel,
                null,
                null,
                started.parent(),
                attributes);
    }
}
