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

    /**
     * One step that takes a second, as a call to a slow service does: a worker killed while running such runs leaves
     * their first turns leased and unrecorded ({@link RateLimitAfterKill}).
     */
    static final Workflow<String, String> SLOW = Workflow.define(
            "tck.process.slow",
            String.class,
            (ctx, in) -> ctx.step("call", () -> {
                Thread.sleep(1_000);
                return in;
            }));

    private QueueWorkerMain() {}

    public static void main(String[] args) throws InterruptedException {
        try (Worldflow wf = Worldflow.builder()
                .fromConfig()
                .register(HELD)
                .register(QUICK)
                .register(SLOW)
                .build()) {
            wf.startWorker();
            System.out.println("worker " + System.getProperty("worker.name") + " ready");
            Thread.currentThread().join(); // until SIGTERM: the worker's shutdown hook stops it
        }
    }
}
