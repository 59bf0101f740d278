package io.worldflow.runtime.internal;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Runs a worker's periodic look (at due schedules, at queues to admit from) one at a time, on a virtual thread: a look
 * asked for while one is under way makes that one look once more instead of running beside it, and after each the
 * next is planned with the scheduler at the instant the look returns, unless an earlier one is planned already.
 */
final class Looks {

    private final String threadName;
    private final Supplier<Instant> look;
    private final ClockScheduler scheduler;
    private final AtomicBoolean looking = new AtomicBoolean();
    private volatile boolean again;
    private volatile boolean closed;
    /** The next look planned with the scheduler; guarded by this. */
    private Instant planned;

    /**
     * @param look one look; returns when the next should be (never null)
     */
    Looks(String threadName, Supplier<Instant> look, ClockScheduler scheduler) {
        this.threadName = threadName;
        this.look = look;
        this.scheduler = scheduler;
    }

    /** Looks now, off the caller's thread (or once more after the look under way). */
    void poke() {
        if (closed) {
            return;
        }
        if (looking.get()) {
            again = true;
            return;
        }
        Thread.ofVirtual().name(threadName).start(this::run);
    }

    boolean closed() {
        return closed;
    }

    void close() {
        closed = true;
    }

    private void run() {
        if (!looking.compareAndSet(false, true)) {
            again = true; // the look under way looks once more
            return;
        }
        Instant next;
        try {
            do {
                again = false;
                next = look.get();
            } while (again && !closed);
        } finally {
            looking.set(false);
        }
        if (again) {
            poke(); // asked for between the last look and the end of this one
        }
        plan(next);
    }

    private void plan(Instant at) {
        synchronized (this) {
            if (closed
                    || (planned != null
                            && !planned.isAfter(at)
                            && planned.isAfter(scheduler.clock().instant()))) {
                return; // an earlier look is planned already
            }
            planned = at;
        }
        scheduler.schedule(at, this::woke);
    }

    /**
     * On the scheduler's thread, which must not wait on the world: a look reads and writes it, and every timer of the
     * process (a run's start, a sleeping run's wake-up) waits behind whatever runs there.
     */
    private void woke() {
        synchronized (this) {
            planned = null;
        }
        poke();
    }
}
