package io.worldflow.bench;

import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;

import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * The worker JVM of the benchmarks: opens the world named by system properties ({@code worldflow.world} and
 * its keys), starts one worker of concurrency 100 with default settings otherwise, opens its control port
 * and prints {@code READY <port>} on standard output. Stops on SIGTERM (the worker's own shutdown hook).
 * {@value #WORKER_ID} names it (several workers of one world need distinct names), and
 * {@code worldflow.worker.queues} (comma-separated) lists the queues it serves when set.
 */
public final class BenchWorker {

    /** The line the driver waits for. */
    static final String READY = "READY ";

    /** The system property that names the worker in leases (default {@code bench-worker}). */
    static final String WORKER_ID = "bench.worker.id";

    private BenchWorker() {}

    /**
     * The configured world, opened as the builder opens it: its event codec holds no payload keys, since payloads
     * reach the world already sealed by the runtime's codec, so encryption configured for the worker still applies.
     */
    private static World openWorld() {
        WorldConfig config = WorldflowConfig.load(Map.of(), WorldLoader.knownKeys());
        return WorldLoader.open(config, Clock.systemUTC(), new JsonCodec().eventCodec());
    }

    public static void main(String[] args) {
        int concurrency = Integer.getInteger("bench.worker.concurrency", 100);
        Worldflow.Builder b = Worldflow.builder().fromConfig();
        BenchWorkflows.ALL.forEach(b::register);
        BenchTelemetry.apply(b);
        StageRecorder stages = Boolean.getBoolean(StageRecorder.PROPERTY) ? new StageRecorder() : null;
        if (stages != null) {
            b.world(stages.wrap(openWorld()));
        }
        Worldflow wf = b.build();
        WorkerOptions options = WorkerOptions.defaults()
                .withConcurrency(concurrency)
                .withWorkerId(System.getProperty(WORKER_ID, "bench-worker"));
        String queues = System.getProperty(WorkerOptions.QUEUES);
        if (queues != null) {
            Set<String> names = Arrays.stream(queues.split(","))
                    .map(String::strip)
                    .filter(q -> !q.isEmpty())
                    .collect(Collectors.toSet());
            options = options.withQueues(names);
        }
        wf.startWorker(options);
        ControlServer control = new ControlServer(new DirectClient(wf, false), stages);
        System.out.println(READY + control.port());
        System.out.flush();
        try {
            new CountDownLatch(1).await(); // until SIGTERM runs the shutdown hooks
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
