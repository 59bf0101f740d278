package io.worldflow.runtime.internal;

import io.worldflow.ResultTimeoutException;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.WorkflowFailedException;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.spi.World;

import java.time.Duration;

/** A client's view of one run. */
public final class Handle<O> implements RunHandle<O> {

    private static final long MAX_POLL_NANOS = 100_000_000L;

    private final World world;
    private final JsonCodec codec;
    private final RunCompletions completions;
    private final String runId;
    private final String workflow;
    private final Class<O> resultType;

    public Handle(
            World world,
            JsonCodec codec,
            RunCompletions completions,
            String runId,
            String workflow,
            Class<O> resultType) {
        this.world = world;
        this.codec = codec;
        this.completions = completions;
        this.runId = runId;
        this.workflow = workflow;
        this.resultType = resultType;
    }

    @Override
    public String id() {
        return runId;
    }

    @Override
    public String workflow() {
        return workflow;
    }

    @Override
    public RunStatus status() {
        return info().status();
    }

    @Override
    public RunInfo info() {
        return Successors.newest(
                world, world.runQueries().get(runId).orElseThrow(() -> new RunNotFoundException(runId)));
    }

    /** The result of the run, or of its last successor when it continued as new. */
    @Override
    public O result(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        String current = runId;
        while (true) {
            RunInfo info = result(current, end, timeout);
            // on to the newest run of the chain, not through each run between
            RunInfo newest = Successors.newest(world, info);
            if (!newest.runId().equals(current)) {
                current = newest.runId();
                continue;
            }
            String successor = Successors.of(world, info); // a successor named, but gone: waiting for it says so
            if (successor == null) {
                return outcome(info);
            }
            current = successor;
        }
    }

    /** Waits until {@code id} has ended, and returns its projection. */
    private RunInfo result(String id, long end, Duration timeout) {
        long poll = 1_000_000L;
        completions.watch(id);
        try {
            while (true) {
                RunInfo info = world.runQueries().get(id).orElseThrow(() -> new RunNotFoundException(id));
                if (info.isTerminal()) {
                    return info;
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new ResultTimeoutException(id, timeout, info);
                }
                completions.await(id, Math.min(poll, left));
                poll = Math.min(poll * 2, MAX_POLL_NANOS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ResultTimeoutException(id, timeout, RunStatus.RUNNING);
        } finally {
            completions.unwatch(id);
        }
    }

    private O outcome(RunInfo info) {
        String id = info.runId();
        return switch (info.status()) {
            case COMPLETED -> codec.decode(info.output(), resultType, "result of run '" + id + "'");
            case FAILED -> throw new WorkflowFailedException(id, info.error());
            case CANCELED -> throw new WorkflowCanceledException(id, null);
            default -> throw new IllegalStateException("not terminal: " + info.status());
        };
    }

    @Override
    public void cancel() {
        Successors.onNewest(world, runId, id -> {
            world.eventLog().requestCancel(id, "requested by client");
            return id;
        });
    }

    @Override
    public String toString() {
        return "Run[" + workflow + " " + runId + "]";
    }
}
