package io.worldflow.bench;

import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;

import java.util.concurrent.CountDownLatch;

/**
 * The worker JVM of the benchmarks: opens the world named by system properties ({@code worldflow.world} and
 * its keys), starts one worker of concurrency 100 with default settings otherwise, opens its control port
 * and prints {@code READY <port>} on standard output. Stops on SIGTERM (the worker's own shutdown hook).
 */
public final class BenchWorker {

    /** The line the driver waits for. */
    static final String READY = "READY ";

    private BenchWorker() {}

    public static void main(String[] args) {
        int concurrency = Integer.getInteger("bench.worker.concurrency", 100);
        Worldflow.Builder b = Worldflow.builder().fromConfig();
        BenchWorkflows.ALL.forEach(b::register);
        Worldflow wf = b.build();
        wf.startWorker(WorkerOptions.defaults().withConcurrency(concurrency).withWorkerId("bench-worker"));
        ControlServer control = new ControlServer(new DirectClient(wf, false));
        System.out.println(READY + control.port());
        System.out.flush();
        try {
            new CountDownLatch(1).await(); // until SIGTERM runs the shutdown hooks
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
