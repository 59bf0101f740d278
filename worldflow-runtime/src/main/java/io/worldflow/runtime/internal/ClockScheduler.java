package io.worldflow.runtime.internal;

import io.worldflow.runtime.ManualClock;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs tasks at instants of the engine's clock: with the system clock on a timer thread, with a
 * {@link ManualClock} whenever the test moves time past them. Tasks must be short; they run on a
 * virtual thread each (manual) or the timer thread (system).
 */
public final class ClockScheduler implements AutoCloseable {

    private final InstantSource clock;
    private final ScheduledExecutorService timer;
    private final ManualClock manual;
    private final PriorityQueue<Entry> due = new PriorityQueue<>();
    private final AtomicLong order = new AtomicLong();
    private final ExecutorService runner;
    private final Runnable onClockChange = this::runDue;

    private record Entry(Instant at, long order, Runnable task) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = at.compareTo(o.at);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    public ClockScheduler(InstantSource clock) {
        this.clock = clock;
        if (clock instanceof ManualClock m) {
            this.manual = m;
            this.timer = null;
            this.runner = Executors.newVirtualThreadPerTaskExecutor();
            m.onChange(onClockChange);
        } else {
            this.manual = null;
            this.runner = null;
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
                Thread th = new Thread(r, "worldflow-timer");
                th.setDaemon(true);
                return th;
            });
            t.setRemoveOnCancelPolicy(true);
            this.timer = t;
        }
    }

    public InstantSource clock() {
        return clock;
    }

    /** Runs {@code task} at or after {@code at}. */
    public void schedule(Instant at, Runnable task) {
        if (manual != null) {
            synchronized (due) {
                due.add(new Entry(at, order.incrementAndGet(), task));
            }
            runDue();
            return;
        }
        long nanos = Duration.between(clock.instant(), at).toNanos();
        // round up to whole microseconds past the instant: never early
        long delay = Math.max(0, nanos) + 1_000;
        try {
            timer.schedule(task, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed: nothing more runs
        }
    }

    private void runDue() {
        while (true) {
            Entry next;
            synchronized (due) {
                next = due.peek();
                if (next == null || next.at.isAfter(clock.instant())) {
                    return;
                }
                due.poll();
            }
            try {
                runner.execute(next.task);
            } catch (RejectedExecutionException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        if (manual != null) {
            manual.removeListener(onClockChange);
            runner.shutdownNow();
        } else {
            timer.shutdownNow();
        }
    }
}
