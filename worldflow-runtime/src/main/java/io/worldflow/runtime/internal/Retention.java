package io.worldflow.runtime.internal;

import io.worldflow.runtime.RetentionOptions;
import io.worldflow.spi.EventLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Deletes finished runs past their retention in the background ({@link EventLog#purgeFinished}). Every interval of the
 * engine's clock a pass deletes the runs that finished longer than the retention ago, batch after batch until one
 * comes back short. A pass runs on a thread of its own, not the scheduler's, so that a long backlog never holds up a
 * timer; passes never overlap: a tick that finds one still running leaves the work to it. A failure is logged and the
 * next pass tries again: nothing is thrown at the scheduler. Every worker of a world runs one; the world lets purges
 * run side by side, each run deleted by one of them.
 */
public final class Retention implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Retention.class);
    /** How long closing waits for a pass to finish the batch it is writing. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final EventLog eventLog;
    private final ClockScheduler scheduler;
    private final InstantSource clock;
    private final Duration keepFor;
    private final Duration interval;
    private final int batch;
    private final Object lock = new Object();
    /** The pass in progress, or null; guarded by {@link #lock}. */
    private Thread pass;

    private volatile boolean closed;

    /** @param options enabled retention ({@link RetentionOptions#enabled}) */
    public Retention(EventLog eventLog, ClockScheduler scheduler, RetentionOptions options) {
        this.eventLog = Objects.requireNonNull(eventLog, "eventLog");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.clock = scheduler.clock();
        if (!options.enabled()) {
            throw new IllegalArgumentException("retention is off: runs are kept for ever");
        }
        this.keepFor = options.keepFor();
        this.interval = options.interval();
        this.batch = options.batch();
    }

    /** Schedules the first pass, one interval from now. */
    public void start() {
        log.info(
                "retention: runs that finished more than {} ago are deleted every {}, {} at a time",
                shown(keepFor),
                shown(interval),
                batch);
        scheduler.schedule(clock.instant().plus(interval), this::tick);
    }

    /**
     * On the scheduler's thread: schedules the next tick, then starts a pass on a thread of its own unless one still
     * runs (that one does this tick's work). The next tick is one interval from now, not from when this one was due,
     * so that a clock that jumps ahead brings one pass, not one per interval it skipped.
     */
    private void tick() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            scheduler.schedule(clock.instant().plus(interval), this::tick);
            if (pass == null) {
                pass = Thread.ofVirtual().name("worldflow-retention").start(this::runPass);
            }
        }
    }

    private void runPass() {
        try {
            purge();
        } finally {
            synchronized (lock) {
                pass = null;
                lock.notifyAll();
            }
        }
    }

    /**
     * One pass: deletes the runs that finished before now less the retention, a batch at a time, until a batch comes
     * back short or the worker stops. Never throws.
     *
     * @return how many runs it deleted
     */
    int purge() {
        Instant cutoff = clock.instant().minus(keepFor);
        int deleted = 0;
        try {
            for (int n = batch; n == batch && !closed; ) {
                n = eventLog.purgeFinished(cutoff, batch);
                deleted += n;
            }
            if (deleted > 0) {
                log.info("retention: deleted {} run(s) that finished before {}", deleted, cutoff);
            } else {
                log.debug("retention: no run finished before {}", cutoff);
            }
        } catch (RuntimeException e) {
            if (closed) {
                log.debug("retention: pass ended by the worker stopping after {} run(s): {}", deleted, e.toString());
            } else {
                log.warn(
                        "retention: deleting runs that finished before {} failed after {} run(s); trying again in {}",
                        cutoff,
                        deleted,
                        shown(interval),
                        e);
            }
        }
        return deleted;
    }

    /** A duration as configuration spells it ({@code 30d}, {@code 1m}, {@code 90s}), for the log. */
    static String shown(Duration d) {
        long seconds = d.toSeconds();
        if (d.toNanosPart() != 0 || seconds == 0) {
            return d.toMillis() + "ms";
        }
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }

    /** Stops scheduling passes and waits a little for one in progress to finish its batch. Idempotent. */
    @Override
    public void close() {
        closed = true;
        if (!awaitIdle(STOP_WAIT)) {
            log.warn("retention: a pass still runs after {}; the world closes under it", STOP_WAIT);
        }
    }

    /** Waits until no pass runs, at most {@code timeout}: whether none does. */
    boolean awaitIdle(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            try {
                while (pass != null) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    lock.wait(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return pass == null;
            }
            return true;
        }
    }
}
