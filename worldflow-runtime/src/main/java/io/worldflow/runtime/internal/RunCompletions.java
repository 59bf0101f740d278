package io.worldflow.runtime.internal;

import io.worldflow.spi.RunQueries;
import io.worldflow.spi.TaskQueue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Notice that a run finished, so that a client waiting for a result wakes at once instead of polling:
 * from this process's worker, and from the world's push ({@link RunQueries#subscribeEnded}) for runs that
 * other processes finish. The world is subscribed to when the first result is awaited, not before, so a
 * client that never waits holds no listening connection.
 */
public final class RunCompletions implements AutoCloseable {

    /** The world's notice that some runs ended without naming them. */
    private static final String SOME_ENDED = "*";

    private final RunQueries queries;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Boolean> finished = new ConcurrentHashMap<>();
    private final Map<String, Integer> watched = new ConcurrentHashMap<>();
    /** Bumped by a notice that names no run: every waiter looks again. */
    private long generation;
    /** Guarded by this object's monitor. */
    private TaskQueue.Subscription subscription;

    private boolean closed;

    /** @param queries where the world's end notices come from, or null for this process's worker only */
    public RunCompletions(RunQueries queries) {
        this.queries = queries;
    }

    /** Called by the worker after a run's end is durable, and by the world's push. */
    public void finished(String runId) {
        if (SOME_ENDED.equals(runId)) {
            lock.lock();
            try {
                generation++;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        } else if (watched.containsKey(runId)) {
            lock.lock();
            try {
                finished.put(runId, Boolean.TRUE);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    public void watch(String runId) {
        subscribeOnce();
        watched.merge(runId, 1, Integer::sum);
    }

    public void unwatch(String runId) {
        watched.computeIfPresent(runId, (k, v) -> v == 1 ? null : v - 1);
        if (!watched.containsKey(runId)) {
            finished.remove(runId);
        }
    }

    /** Waits up to {@code nanos} for a notice about {@code runId}; true when one came. */
    public boolean await(String runId, long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            long seen = generation;
            while (!finished.containsKey(runId) && generation == seen && left > 0) {
                left = changed.awaitNanos(left);
            }
            return finished.containsKey(runId) || generation != seen;
        } finally {
            lock.unlock();
        }
    }

    /** Subscribes under this object's monitor, not the waiters' lock, which notices need meanwhile. */
    private synchronized void subscribeOnce() {
        if (queries != null && subscription == null && !closed) {
            subscription = queries.subscribeEnded(this::finished);
        }
    }

    /** Stops listening to the world. */
    @Override
    public synchronized void close() {
        closed = true;
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
    }
}
