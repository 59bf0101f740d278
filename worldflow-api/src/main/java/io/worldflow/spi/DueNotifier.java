package io.worldflow.spi;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * For world authors: the push side of {@link TaskQueue#subscribe}. A world calls {@link #due} after a
 * commit that makes a turn due (its own, or one another process announced); listeners are called on
 * this notifier's own thread, never inside the caller's write or under its locks, and instants that
 * arrive while one is being delivered are merged into the earliest.
 */
public final class DueNotifier implements AutoCloseable {

    private static final System.Logger log = System.getLogger(DueNotifier.class.getName());

    private final List<Consumer<Instant>> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final String threadName;
    private Instant pending;
    private Thread thread;
    private boolean closed;

    /** @param threadName the name of the delivery thread, started on first use */
    public DueNotifier(String threadName) {
        this.threadName = threadName;
    }

    /** Adds a listener; closing the subscription removes it. */
    public TaskQueue.Subscription subscribe(Consumer<Instant> listener) {
        Objects.requireNonNull(listener, "listener");
        Consumer<Instant> entry = listener::accept; // one object per subscription, so close() removes only it
        listeners.add(entry);
        startOnce();
        return () -> listeners.remove(entry);
    }

    public boolean hasListeners() {
        return !listeners.isEmpty();
    }

    /** Tells the listeners that a turn is due at {@code at}: schedules its delivery and returns at once. */
    public void due(Instant at) {
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
                log.log(System.Logger.Level.WARNING, "a due-time listener failed", e);
            }
        }
    }
}
