package io.worldflow.runtime;

import io.worldflow.runtime.internal.AdmissionLoop;
import io.worldflow.runtime.internal.ClockScheduler;
import io.worldflow.runtime.internal.Committer;
import io.worldflow.runtime.internal.Engine;
import io.worldflow.runtime.internal.QueueRunner;
import io.worldflow.runtime.internal.Registry;
import io.worldflow.runtime.internal.Retention;
import io.worldflow.runtime.internal.RunCompletions;
import io.worldflow.runtime.internal.ScheduleLoop;
import io.worldflow.runtime.internal.WorkerLoop;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.World;

import java.time.InstantSource;

/**
 * The worker of one {@link Worldflow} and what runs beside it (the schedule and admission loops, the deletion of old
 * runs, the shutdown hook), started and stopped together, as often as the application asks. Not thread-safe: the
 * {@code Worldflow} calls it under its own lock.
 */
final class WorkerHost {

    private final World world;
    private final JsonCodec codec;
    private final InstantSource clock;
    private final Registry registry;
    private final RunCompletions completions;
    private final QueueRunner queueRunner;
    private final Schedules schedules;
    private final StepInterceptor steps;
    private final Telemetry telemetry;

    private volatile WorkerLoop worker;
    private Committer committer;
    private ClockScheduler scheduler;
    private Retention retention;
    private ScheduleLoop scheduleLoop;
    private AdmissionLoop admissionLoop;
    private Thread shutdownHook;

    WorkerHost(
            World world,
            JsonCodec codec,
            InstantSource clock,
            Registry registry,
            RunCompletions completions,
            QueueRunner queueRunner,
            Schedules schedules,
            StepInterceptor steps,
            Telemetry telemetry) {
        this.world = world;
        this.codec = codec;
        this.clock = clock;
        this.registry = registry;
        this.completions = completions;
        this.queueRunner = queueRunner;
        this.schedules = schedules;
        this.steps = steps;
        this.telemetry = telemetry;
    }

    /** The worker running now, or null. */
    WorkerLoop worker() {
        return worker;
    }

    /** Starts the worker and its loops; {@code onSigterm} runs at the JVM's shutdown when the options ask for it. */
    void start(WorkerOptions options, Runnable onSigterm) {
        if (worker != null) {
            throw new IllegalStateException("this Worldflow already runs a worker");
        }
        scheduler = new ClockScheduler(clock);
        committer = new Committer(world.eventLog(), world.workerAccess().appendsInProcess(), telemetry);
        Engine engine = new Engine(
                world,
                codec,
                clock,
                scheduler,
                committer,
                registry,
                completions,
                queueRunner,
                options.stickyWait(),
                options.holdRetry(),
                steps,
                null,
                telemetry);
        worker = new WorkerLoop(
                engine,
                new WorkerLoop.Settings(
                        options.workerId(),
                        options.concurrency(),
                        options.queues(),
                        options.lease(),
                        options.pollInterval(),
                        options.shutdownGrace()));
        scheduleLoop = new ScheduleLoop(schedules.runner(), scheduler);
        schedules.firedBy(scheduleLoop);
        scheduleLoop.poke();
        admissionLoop = new AdmissionLoop(queueRunner, options.queues(), scheduler, world.taskQueue());
        admissionLoop.poke();
        if (options.retention().enabled()) {
            retention = new Retention(world.eventLog(), scheduler, options.retention());
            retention.start();
        }
        if (options.handleSigterm()) {
            shutdownHook = new Thread(onSigterm, "worldflow-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** Stops the worker gracefully and its loops with it; nothing when none runs. It may be started again. */
    void stop() {
        if (retention != null) {
            retention.close();
            retention = null;
        }
        if (scheduleLoop != null) {
            schedules.firedBy(null);
            scheduleLoop.close();
            scheduleLoop = null;
        }
        if (admissionLoop != null) {
            admissionLoop.close();
            admissionLoop = null;
        }
        if (worker != null) {
            worker.close();
            committer.close();
            scheduler.close();
            worker = null;
            committer = null;
            scheduler = null;
        }
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException ignored) {
                // the JVM is already shutting down
            }
        }
        shutdownHook = null;
    }
}
