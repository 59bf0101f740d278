package io.worldflow.world.postgres;

import io.worldflow.spi.TaskQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Delivers due instants to subscribers: those of this process's own commits at once, and those other
 * processes announce with NOTIFY as {@link DueListener} hears them.
 *
 * <p>Listeners are called on a thread of their own, never on the thread that wrote: a writer does not
 * wait for listener code, and a listener may take locks that a writer's caller holds. Instants that
 * arrive while a delivery is under way are merged into the earliest of them, which is enough for a
 * worker that asks {@link TaskQueue#nextDue} again after it wakes.
 */
final class DueNotifier implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DueNotifier.class);

    private final List<Consumer<Instant>> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final String threadName;
    private Instant pending;
    private Thread thread;
    private boolean closed;

    DueNotifier(String threadName) {
        this.threadName = threadName;
    }

    TaskQueue.Subscription subscribe(Consumer<Instant> listener) {
        Objects.requireNonNull(listener, "listener");
        Consumer<Instant> entry = listener::accept; // one object per subscription, so close() removes only it
        listeners.add(entry);
        startOnce();
        return () -> listeners.remove(entry);
    }

    boolean hasListeners() {
        return !listeners.isEmpty();
    }

    /** Schedules delivery of {@code at} to every listener; returns at once. */
    void due(Instant at) {
        if (listeners.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            if (pending == null || at.isBefore(pending)) {
                pending = at;
            }
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Stops the delivery thread; what was not yet delivered is dropped. Idempotent. */
    @Override
    public void close() {
        Thread t;
        lock.lock();
        try {
            closed = true;
            pending = null;
            changed.signal();
            t = thread;
        } finally {
            lock.unlock();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void startOnce() {
        lock.lock();
        try {
            if (thread == null && !closed) {
                thread = Thread.ofPlatform().daemon().name(threadName).start(this::run);
            }
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (true) {
            Instant at;
            lock.lock();
            try {
                while (pending == null && !closed) {
                    changed.await();
                }
                if (closed) {
                    return;
                }
                at = pending;
                pending = null;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            deliver(at);
        }
    }

    private void deliver(Instant at) {
        for (Consumer<Instant> listener : listeners) {
            try {
                listener.accept(at);
            } catch (RuntimeException e) {
                log.warn("a due-time listener failed", e);
            }
        }
    }
}
