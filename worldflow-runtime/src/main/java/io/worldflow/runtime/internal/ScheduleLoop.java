package io.worldflow.runtime.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A worker's part in firing schedules: it looks at the schedules due, fires them, and sleeps until the earliest next
 * one wants a look, or a second at most, so that a schedule another process creates or changes is seen within a
 * second. A change made through this process looks at once ({@link #poke}). Every worker does the same; a schedule's
 * writes compare and set, so one fire time is decided once however many look.
 */
public final class ScheduleLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ScheduleLoop.class);
    private static final Duration POLL = Duration.ofSeconds(1);
    /** After a look that failed, the next is no sooner than this. */
    private static final Duration AFTER_FAILURE = POLL;
    /** The least time between two looks at schedules that are still due (another worker is firing them). */
    private static final Duration MIN_GAP = Duration.ofMillis(5);

    private static final int BATCH = 100;

    private final ScheduleRunner runner;
    private final ClockScheduler scheduler;
    private final InstantSource clock;
    private final AtomicBoolean looking = new AtomicBoolean();
    private volatile boolean again;
    private volatile boolean closed;
    /** The next look planned with the scheduler; guarded by this. */
    private Instant planned;

    public ScheduleLoop(ScheduleRunner runner, ClockScheduler scheduler) {
        this.runner = runner;
        this.scheduler = scheduler;
        this.clock = scheduler.clock();
    }

    /** Looks now, off the caller's thread. */
    public void poke() {
        if (!closed) {
            Thread.ofVirtual().name("wf-schedules").start(this::look);
        }
    }

    private void look() {
        if (!looking.compareAndSet(false, true)) {
            again = true; // the look under way looks once more
            return;
        }
        Instant next;
        try {
            Instant now;
            Instant earliest;
            int rounds = 0;
            do {
                again = false;
                while (!closed && runner.fireDue(BATCH) == BATCH) {
                    // more were due than one batch: go on
                }
                now = clock.instant();
                earliest = runner.nextWake(now.plus(POLL));
                // one that came due while this look fired the others is fired now, not a gap later: time may not
                // move on by itself (a manual clock); a few rounds at most, as one another worker holds stays due
            } while (!closed && (again || (earliest != null && !earliest.isAfter(now) && ++rounds < 3)));
            next = earliest == null ? now.plus(POLL) : later(earliest, now.plus(MIN_GAP));
        } catch (RuntimeException e) {
            log.warn("looking at due schedules failed ({}); looking again in {}", e.toString(), AFTER_FAILURE);
            next = clock.instant().plus(AFTER_FAILURE);
        } finally {
            looking.set(false);
        }
        if (again) {
            poke();
        }
        plan(next);
    }

    private void plan(Instant at) {
        synchronized (this) {
            if (closed || (planned != null && !planned.isAfter(at) && planned.isAfter(clock.instant()))) {
                return; // an earlier look is planned already
            }
            planned = at;
        }
        scheduler.schedule(at, this::woke);
    }

    private void woke() {
        synchronized (this) {
            planned = null;
        }
        look();
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    @Override
    public void close() {
        closed = true;
    }
}
