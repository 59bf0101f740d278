package io.worldflow.examples;

import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A worker whose runs all sleep for a day, in a JVM of its own so that its heap is its own:
 * {@code SleepersHeapMain <db> <warm-up runs> <runs>}. Prints {@code heap per sleeping run: <bytes>}, the growth of the
 * heap after a full collection from the warm-up's runs asleep to every run asleep, divided by the runs added.
 */
final class SleepersHeapMain {

    static final Workflow<Integer, Integer> SLEEPER = Workflow.define("heap.sleeper", Integer.class, (ctx, n) -> {
        ctx.sleep("nap", Duration.ofDays(1));
        return n;
    });

    private SleepersHeapMain() {}

    public static void main(String[] args) throws InterruptedException {
        String db = args[0];
        int warmUp = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db)
                .register(SLEEPER)
                .build()) {
            wf.startWorker();
            startAll(wf, 0, warmUp);
            awaitAsleep(wf, warmUp);
            long before = heapAfterGc();
            startAll(wf, warmUp, warmUp + runs);
            awaitAsleep(wf, warmUp + runs);
            long after = heapAfterGc();
            System.out.println("heap per sleeping run: " + (after - before) / runs);
        }
    }

    private static void startAll(Worldflow wf, int from, int to) throws InterruptedException {
        try (ExecutorService starters = Executors.newFixedThreadPool(8)) {
            for (int i = from; i < to; i++) {
                int n = i;
                starters.execute(() -> wf.start(SLEEPER, n));
            }
        }
    }

    private static void awaitAsleep(Worldflow wf, long runs) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (wf.counts(RunQuery.all()).getOrDefault(RunStatus.SLEEPING, 0L) < runs) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("not every run fell asleep: " + wf.counts(RunQuery.all()));
            }
            Thread.sleep(50);
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
