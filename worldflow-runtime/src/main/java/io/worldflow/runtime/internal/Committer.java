package io.worldflow.runtime.internal;

import io.worldflow.WorldException;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.NewRun;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit: appends from all runs of this process queue here, and everything queued goes to the world as
 * one batch (one transaction). While a commit is in flight the next batch gathers, so the number of commits per
 * run falls as load rises. One commit is in flight at a time and batches leave in the order they were queued,
 * so a run may pipeline appends; those of one run in a batch go to the world as one ({@link PipelinedAppends}).
 *
 * <p>A batch is committed by the committer's thread or, when the event log appends in this process
 * ({@link io.worldflow.spi.WorkerAccess#appendsInProcess}), by a thread that is about to wait for one of the queued appends
 * ({@link #help}) and finds no commit in flight: that thread would only wait for the committer's thread to wake,
 * commit and wake it in turn.
 */
public final class Committer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Committer.class);
    private static final int MAX_BATCH = 512;

    private record Request(Append append, CompletableFuture<AppendResult> result) {}

    private final EventLog eventLog;
    private final boolean helped;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    /** Guarded by {@link #lock}. */
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    /** Whether a batch is being committed; guarded by {@link #lock}. */
    private boolean committing;

    private final Thread thread;
    private volatile boolean closed;
    /** This process's worker, once it runs: the runs a batch creates may begin there, leased in the batch's write. */
    private volatile WorkerLoop worker;

    private final Telemetry telemetry;
    private long commits;
    private long appends;

    /** @param inProcess whether the log appends in this process, so that a waiting thread may commit ({@link #help}) */
    public Committer(EventLog eventLog, boolean inProcess, Telemetry telemetry) {
        this.eventLog = eventLog;
        this.telemetry = telemetry;
        this.helped = inProcess;
        this.thread = Thread.ofPlatform().daemon().name("worldflow-committer").start(this::loop);
    }

    /** Lets runs that batches create begin in {@code worker} at once ({@link WorkerLoop#reserveStarts}). */
    void startHere(WorkerLoop worker) {
        this.worker = worker;
    }

    public CompletableFuture<AppendResult> submit(Append append) {
        CompletableFuture<AppendResult> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new WorldException("the committer is closed", false, null));
            return f;
        }
        lock.lock();
        try {
            queue.add(new Request(append, f));
            if (!committing) {
                work.signal();
            }
        } finally {
            lock.unlock();
        }
        return f;
    }

    /**
     * Called by a thread about to wait for {@code awaited}: where the event log appends in this process, while
     * {@code awaited} is not done and no commit is in flight, this thread commits what is queued itself. Returns
     * when {@code awaited} is done, another thread commits, or the log appends elsewhere.
     */
    public void help(CompletableFuture<?> awaited) {
        while (helped && !awaited.isDone()) {
            List<Request> batch = take(false);
            if (batch == null) {
                return;
            }
            commitAndRelease(batch);
        }
    }

    private void loop() {
        while (true) {
            List<Request> batch = take(true);
            if (batch != null) {
                commitAndRelease(batch);
            } else if (closed && idle()) {
                break;
            }
        }
        lock.lock();
        try {
            for (Request r : queue) {
                r.result.completeExceptionally(new WorldException("the committer is closed", false, null));
            }
            queue.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Nothing queued and nothing in flight. */
    private boolean idle() {
        lock.lock();
        try {
            return queue.isEmpty() && !committing;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next batch, marked as being committed; null when there is none to take (nothing queued, or a commit in
     * flight). With {@code wait}, waits a while for one first.
     */
    private List<Request> take(boolean wait) {
        lock.lock();
        try {
            if (wait && (committing || queue.isEmpty())) {
                work.await(100, TimeUnit.MILLISECONDS);
            }
            if (committing || queue.isEmpty()) {
                return null;
            }
            committing = true;
            List<Request> batch = new ArrayList<>(Math.min(queue.size(), MAX_BATCH));
            while (!queue.isEmpty() && batch.size() < MAX_BATCH) {
                batch.add(queue.poll());
            }
            return batch;
        } catch (InterruptedException e) {
            return null; // only the committer's own thread waits here, and it goes on
        } finally {
            lock.unlock();
        }
    }

    private void commitAndRelease(List<Request> batch) {
        try {
            commit(batch);
        } finally {
            lock.lock();
            try {
                committing = false;
                if (!queue.isEmpty()) {
                    work.signal();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void commit(List<Request> batch) {
        List<Append> list = new ArrayList<>(batch.size());
        for (Request r : batch) {
            list.add(r.append);
        }
        // runs the batch creates that may begin in this process's worker hold their slots until the write is over
        WorkerLoop here = worker;
        LeasingWrites.Reserved reserved = here == null ? null : here.reserveStarts(starts(list));
        List<AppendResult> results;
        long began = System.nanoTime();
        try {
            results = write(list, reserved);
        } catch (RuntimeException e) {
            if (reserved != null) {
                reserved.begin();
            }
            log.warn("append of {} batched writes failed: {}", list.size(), e.toString());
            for (Request r : batch) {
                r.result.completeExceptionally(e);
            }
            return;
        }
        long took = System.nanoTime() - began;
        if (reserved != null) {
            reserved.begin(); // before the appending runs go on: the runs they started are under way sooner
        }
        commits++;
        appends += list.size();
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).result.complete(results.get(i));
        }
        // measured after the runs waiting for the commit go on: recording it is not on their way
        telemetry.committed(list.size(), took);
    }

    private static List<NewRun> starts(List<Append> appends) {
        List<NewRun> out = new ArrayList<>();
        for (Append a : appends) {
            out.addAll(a.starts());
        }
        return out;
    }

    /**
     * Writes the batch with each run's pipelined appends joined. A world that refuses the joined form for good (an
     * append past its size limit, where each one alone fits) is given them as they were queued.
     */
    private List<AppendResult> write(List<Append> queued, LeasingWrites.Reserved reserved) {
        PipelinedAppends joined = new PipelinedAppends(queued);
        if (joined.appends.size() == queued.size()) {
            return send(queued, reserved);
        }
        try {
            return joined.results(send(joined.appends, reserved));
        } catch (WorldException e) {
            if (e.isTransient()) {
                throw e;
            }
            log.debug("a batch's joined appends were refused ({}); writing them one by one", e.toString());
            return send(queued, reserved);
        }
    }

    /** The appends, with the runs they create that {@code reserved} holds slots for leased in the same write. */
    private List<AppendResult> send(List<Append> appends, LeasingWrites.Reserved reserved) {
        return reserved == null ? eventLog.append(appends) : reserved.append(appends);
    }

    /** Commits so far and appends so far (for statistics). */
    public long[] counts() {
        return new long[] {commits, appends};
    }

    @Override
    public void close() {
        closed = true;
        lock.lock();
        try {
            work.signal();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
