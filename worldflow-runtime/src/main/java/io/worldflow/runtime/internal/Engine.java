package io.worldflow.runtime.internal;

import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.StepInterceptor;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.World;

import java.time.Duration;
import java.time.InstantSource;

/** The services every run execution shares within one Worldflow instance. */
public final class Engine {

    final World world;
    final JsonCodec codec;
    final InstantSource clock;
    final ClockScheduler scheduler;
    final Committer committer;
    final Registry registry;
    final RunCompletions completions;
    final QueueRunner queues;
    final Duration stickyWait;
    final Duration holdRetry;
    /** This process's worker once it runs: a run's children are created through it, their first turn leased here. */
    volatile WorkerLoop worker;
    /** What runs each step attempt's code. */
    final StepInterceptor steps;
    /** The replay this engine serves instead of a worker, or null: then nothing is written and nothing runs live. */
    final Replay replay;
    /** Where spans and meters go. */
    final Telemetry telemetry;

    public Engine(
            World world,
            JsonCodec codec,
            InstantSource clock,
            ClockScheduler scheduler,
            Committer committer,
            Registry registry,
            RunCompletions completions,
            QueueRunner queues,
            Duration stickyWait,
            Duration holdRetry,
            StepInterceptor steps,
            Replay replay,
            Telemetry telemetry) {
        this.world = world;
        this.codec = codec;
        this.clock = clock;
        this.scheduler = scheduler;
        this.committer = committer;
        this.registry = registry;
        this.completions = completions;
        this.queues = queues;
        this.stickyWait = stickyWait;
        this.holdRetry = holdRetry;
        this.steps = steps;
        this.replay = replay;
        this.telemetry = telemetry;
    }
}
