package io.worldflow.tck.process;

import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;

/**
 * A worker process for {@link QueueLimitsAcrossProcesses}: runs its workflows on the world from configuration
 * ({@code -D} properties, including the queues to serve) until it receives SIGTERM.
 */
public final class QueueWorkerMain {

    /** Takes a while and sleeps durably in the middle: it holds its queue's place while it sleeps, not a thread. */
    static final Workflow<String, String> HELD = Workflow.define("tck.process.held", String.class, (ctx, in) -> {
        ctx.step("begin", () -> in);
        ctx.sleep("pause", Duration.ofMillis(150));
        return ctx.step("end", () -> in);
    });

    static final Workflow<String, String> QUICK =
            Workflow.define("tck.process.quick", String.class, (ctx, in) -> ctx.step("begin", () -> in));

    private QueueWorkerMain() {}

    public static void main(String[] args) throws InterruptedException {
        try (Worldflow wf =
                Worldflow.builder().fromConfig().register(HELD).register(QUICK).build()) {
            wf.startWorker();
            System.out.println("worker " + System.getProperty("worker.name") + " ready");
            Thread.currentThread().join(); // until SIGTERM: the worker's shutdown hook stops it
        }
    }
}
