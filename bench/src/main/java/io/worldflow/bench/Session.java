package io.worldflow.bench;

import io.worldflow.RunStatus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One workload on fresh storage of one target: the driver's client, its worker JVM (several only on a world that
 * several processes share), and the waits
 * (counting every {@code countPollMs}; one run through the client's result wait, which the world's push
 * wakes, or by primary key every {@code runPollMs} where the world pushes nothing).
 */
final class Session implements AutoCloseable {

    private final Target target;
    private final Map<String, String> world;
    private final Path logDir;
    private final Sizes sizes;
    private DirectClient driver;
    /** The first worker: where the client calls go on a world it owns. */
    private WorkerProcess worker;

    private final List<WorkerProcess> workers = new ArrayList<>();

    Session(Target target, String label, Sizes sizes, Path logDir) {
        this.target = target;
        this.world = target.freshWorld(label);
        this.sizes = sizes;
        this.logDir = logDir;
    }

    /** The driver's own client (opens the world in this process; not while a worker owns a local world). */
    DirectClient driver() {
        if (driver == null) {
            if (worker != null && !target.shared()) {
                throw new IllegalStateException(target.name() + " belongs to the worker JVM while it runs");
            }
            driver = DirectClient.open(world);
        }
        return driver;
    }

    void closeDriver() {
        if (driver != null) {
            driver.close();
            driver = null;
        }
    }

    /** Where the workload's client calls go: the driver's client, or the worker's when it owns the world. */
    BenchClient client() {
        return worker != null && !target.shared() ? worker.control() : driver();
    }

    WorkerProcess startWorker() {
        return startWorker(Map.of());
    }

    /**
     * Starts a worker JVM with {@code extra} system properties besides the world's. A second one gets its own worker id
     * and log, and is refused on a world that one process owns.
     */
    WorkerProcess startWorker(Map<String, String> extra) {
        if (!target.shared()) {
            if (worker != null) {
                throw new IllegalStateException(target.name() + " belongs to one worker JVM");
            }
            closeDriver(); // the local file belongs to one process
        }
        Map<String, String> properties = new LinkedHashMap<>(world);
        properties.putAll(extra);
        String suffix = "";
        if (!workers.isEmpty()) {
            suffix = "-" + (workers.size() + 1);
            properties.put(BenchWorker.WORKER_ID, "bench-worker" + suffix);
        }
        WorkerProcess w = WorkerProcess.start(properties, logDir.resolve("worker-" + target.name() + suffix + ".log"));
        workers.add(w);
        if (worker == null) {
            worker = w;
        }
        return w;
    }

    WorkerProcess worker() {
        return worker;
    }

    /** Stops every worker JVM; the measure of the first. */
    WorkerProcess.Measure stopWorker() {
        WorkerProcess.Measure m = worker.stop();
        for (WorkerProcess w : workers) {
            w.stop();
        }
        workers.clear();
        worker = null;
        return m;
    }

    /** Waits until {@code n} runs of {@code workflow} have {@code status}, counting every countPollMs. */
    void awaitCount(String workflow, RunStatus status, long n, long timeoutMs) {
        BenchClient c = client();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long seen = c.count(workflow, status);
            if (seen >= n) {
                return;
            }
            if (status != RunStatus.FAILED && c.count(workflow, RunStatus.FAILED) > 0) {
                throw new IllegalStateException("a run of " + workflow + " failed");
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(
                        seen + " of " + n + " runs of " + workflow + " are " + status + " after " + timeoutMs + " ms");
            }
            sleep(sizes.countPollMs());
        }
    }

    /**
     * Waits until every run of {@code ids} has completed: each through the client's result wait when the
     * target pushes ends (with primary-key lookups as its fallback), else by looking each pending one up
     * every runPollMs.
     */
    void awaitRuns(Collection<String> ids, long timeoutMs) {
        BenchClient c = client();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        if (target.pushesEnds()) {
            for (String id : ids) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    throw new IllegalStateException("runs not completed after " + timeoutMs + " ms");
                }
                c.await(id, left);
            }
            return;
        }
        Set<String> pending = new LinkedHashSet<>(ids);
        while (true) {
            pending.removeIf(id -> done(c, id));
            if (pending.isEmpty()) {
                return;
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(pending.size() + " runs not completed after " + timeoutMs + " ms");
            }
            sleep(sizes.runPollMs());
        }
    }

    /** Waits until the run has {@code status}, looking it up every runPollMs. */
    void awaitStatus(String runId, RunStatus status, long timeoutMs) {
        BenchClient c = client();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        RunStatus seen;
        while ((seen = c.status(runId)) != status) {
            if (seen.isTerminal() || System.nanoTime() > end) {
                throw new IllegalStateException("run " + runId + " is " + seen + ", not " + status);
            }
            sleep(sizes.runPollMs());
        }
    }

    private static boolean done(BenchClient c, String id) {
        RunStatus s = c.status(id);
        if (s == RunStatus.COMPLETED) {
            return true;
        }
        if (s.isTerminal()) {
            throw new IllegalStateException("run " + id + " ended " + s);
        }
        return false;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        if (worker != null) {
            stopWorker();
        }
        closeDriver();
    }
}
