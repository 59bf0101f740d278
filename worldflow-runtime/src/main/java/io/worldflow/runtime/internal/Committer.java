package io.worldflow.runtime.internal;

import io.worldflow.WorldException;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.EventLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Group commit: appends from all runs of this process queue here, and one thread hands everything
 * queued to the world as one batch (one transaction). While a commit is in flight the next batch
 * gathers, so the number of commits per run falls as load rises. Order is preserved, so a run may
 * pipeline appends.
 */
public final class Committer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Committer.class);
    private static final int MAX_BATCH = 512;

    private record Request(Append append, CompletableFuture<AppendResult> result) {
    }

    private final EventLog eventLog;
    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;
    private long commits;
    private long appends;

    public Committer(EventLog eventLog) {
        this.eventLog = eventLog;
        this.thread = Thread.ofPlatform().daemon().name("worldflow-committer").start(this::loop);
    }

    public CompletableFuture<AppendResult> submit(Append append) {
        CompletableFuture<AppendResult> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new WorldException("the committer is closed", false, null));
            return f;
        }
        queue.add(new Request(append, f));
        return f;
    }

    private void loop() {
        List<Request> batch = new ArrayList<>(MAX_BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Request first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            } finally {
                batch.clear();
            }
        }
        Request r;
        while ((r = queue.poll()) != null) {
            r.result.completeExceptionally(new WorldException("the committer is closed", false, null));
        }
    }

    private void commit(List<Request> batch) {
        List<Append> list = new ArrayList<>(batch.size());
        for (Request r : batch) {
            list.add(r.append);
        }
        try {
            List<AppendResult> results = eventLog.append(list);
            commits++;
            appends += list.size();
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result.complete(results.get(i));
            }
        } catch (RuntimeException e) {
            log.warn("append of {} batched writes failed: {}", list.size(), e.toString());
            for (Request r : batch) {
                r.result.completeExceptionally(e);
            }
        }
    }

    /** Commits so far and appends so far (for statistics). */
    public long[] counts() {
        return new long[]{commits, appends};
    }

    @Override
    public void close() {
        closed = true;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
