package io.worldflow.spring.internal;

import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the worker while the application context runs. It starts before the web server and stops after it, so runs
 * that requests start are taken, and requests being answered at shutdown can still start runs. Stopping stops the
 * worker only: in-flight turns get the worker's shutdown grace ({@code worldflow.worker.shutdown-grace}) to finish
 * before they are handed back, and the {@link Worldflow} stays open until the context closes, so a context stopped and
 * started again (as a checkpoint and restore does) runs a worker again.
 */
public final class WorkerLifecycle implements SmartLifecycle {

    /** Before Spring Boot's web server (which starts at {@code DEFAULT_PHASE - 2048}), and so stopped after it. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final Worldflow worldflow;
    private final WorkerOptions options;
    private volatile boolean running;

    public WorkerLifecycle(Worldflow worldflow, WorkerOptions options) {
        this.worldflow = worldflow;
        // Spring's own shutdown hook closes the context, and this with it: a second hook would race it
        this.options = options.withHandleSigterm(false);
    }

    @Override
    public void start() {
        worldflow.startWorker(options);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        worldflow.stopWorker();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    public WorkerOptions options() {
        return options;
    }
}
