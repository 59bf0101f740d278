package io.worldflow.runtime.internal;

import java.time.Instant;
import java.util.TreeSet;

/**
 * The due instants a worker was told of, each acted on at its time: the earliest is on the scheduler, and
 * when it passes the next one is put there. Beyond {@value #MAX} instants the latest are dropped; the
 * worker's periodic question for the next due time finds them.
 */
final class Wakes {

    static final int MAX = 100_000;

    private final ClockScheduler scheduler;
    private final Runnable onDue;
    private final TreeSet<Instant> pending = new TreeSet<>();
    /** The earliest instant a timer is set for, or null. */
    private Instant scheduled;

    Wakes(ClockScheduler scheduler, Runnable onDue) {
        this.scheduler = scheduler;
        this.onDue = onDue;
    }

    void add(Instant at) {
        synchronized (this) {
            if (!pending.add(at)) {
                return;
            }
            if (pending.size() > MAX) {
                pending.pollLast();
            }
            if (scheduled != null && !scheduled.isAfter(at)) {
                return;
            }
            scheduled = at;
        }
        scheduler.schedule(at, this::fire);
    }

    private void fire() {
        Instant next = null;
        synchronized (this) {
            Instant now = scheduler.clock().instant();
            while (!pending.isEmpty() && !pending.first().isAfter(now)) {
                pending.pollFirst();
            }
            if (scheduled != null && !scheduled.isAfter(now)) {
                scheduled = null;
            }
            if (!pending.isEmpty() && (scheduled == null || pending.first().isBefore(scheduled))) {
                next = pending.first();
                scheduled = next;
            }
        }
        if (next != null) {
            scheduler.schedule(next, this::fire);
        }
        onDue.run();
    }

    synchronized int size() {
        return pending.size();
    }
}
