package io.worldflow.world.postgres.process;

import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A worker process for the multi-process test: runs {@link #WORKFLOW} on the world from configuration
 * (-D properties) until it receives SIGTERM. Every step appends {@code worker runId:stepId:attempt} to the
 * ledger named by {@code -Dledger=...}.
 */
public final class WorkerProcessMain {

    static final int STEPS = 5;

    static final Workflow<Integer, Integer> WORKFLOW = Workflow.define("process.steps.v1", Integer.class, (ctx, n) -> {
        int sum = 0;
        for (int i = 1; i <= STEPS; i++) {
            int v = i;
            sum += ctx.step("s" + i, () -> {
                Thread.sleep(30);
                ledger(ctx.idempotencyKey());
                return n * 10 + v;
            });
        }
        return sum;
    });

    private WorkerProcessMain() {}

    public static void main(String[] args) throws InterruptedException {
        try (Worldflow wf = Worldflow.builder().fromConfig().register(WORKFLOW).build()) {
            wf.startWorker();
            System.out.println("worker " + System.getProperty("worker.name") + " ready");
            Thread.currentThread().join(); // until SIGTERM: the worker's shutdown hook stops it
        }
    }

    private static void ledger(String key) {
        String line = System.getProperty("worker.name") + " " + key + "\n";
        try {
            Files.writeString(
                    Path.of(System.getProperty("ledger")),
                    line,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
