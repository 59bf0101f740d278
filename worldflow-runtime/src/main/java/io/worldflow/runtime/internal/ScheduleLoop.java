package io.worldflow.runtime.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

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
    private final InstantSource clock;
    private final Looks looks;

    public ScheduleLoop(ScheduleRunner runner, ClockScheduler scheduler) {
        this.runner = runner;
        this.clock = scheduler.clock();
        this.looks = new Looks("wf-schedules", this::look, scheduler);
    }

    /** Looks now, off the caller's thread. */
    public void poke() {
        looks.poke();
    }

    /** Fires what is due; returns when to look next. */
    private Instant look() {
        try {
            Instant now;
            Instant earliest;
            int rounds = 0;
            do {
                while (!looks.closed() && runner.fireDue(BATCH) == BATCH) {
                    // more were due than one batch: go on
                }
                now = clock.instant();
                earliest = runner.nextWake(now.plus(POLL));
                // one that came due while this look fired the others is fired now, not a gap later: time may not
                // move on by itself (a manual clock); a few rounds at most, as one another worker holds stays due
            } while (!looks.closed() && earliest != null && !earliest.isAfter(now) && ++rounds < 3);
            return earliest == null ? now.plus(POLL) : later(earliest, now.plus(MIN_GAP));
        } catch (RuntimeException e) {
            if (looks.closed()) {
                log.debug("a look at due schedules ended with the worker ({})", e.toString());
            } else {
                log.warn("looking at due schedules failed ({}); looking again in {}", e.toString(), AFTER_FAILURE);
            }
            return clock.instant().plus(AFTER_FAILURE);
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    @Override
    public void close() {
        looks.close();
    }
}
