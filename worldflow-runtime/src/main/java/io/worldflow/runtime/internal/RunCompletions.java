package io.worldflow.runtime.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-process notice that a run finished, so a client waiting for a result in the same process as the
 * worker wakes at once instead of polling.
 */
public final class RunCompletions {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Boolean> finished = new ConcurrentHashMap<>();
    private final Map<String, Integer> watched = new ConcurrentHashMap<>();

    /** Called by the worker after a run's end is durable. */
    public void finished(String runId) {
        if (watched.containsKey(runId)) {
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
            while (!finished.containsKey(runId) && left > 0) {
                left = changed.awaitNanos(left);
            }
            return finished.containsKey(runId);
        } finally {
            lock.unlock();
        }
    }

}
