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
import java.util.concurrent.ScheduledFuture;
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
    private final PriorityQueue<Manual> due = new PriorityQueue<>();
    private final AtomicLong order = new AtomicLong();
    private final ExecutorService runner;
    private final Runnable onClockChange = this::runDue;

    /** A task scheduled for later. */
    public interface Scheduled {
        /** Lets go of the task: it does not run, and the scheduler no longer holds it or what it refers to. */
        void cancel();

        /** Whether it ran, began to run, or was canceled. */
        boolean isDone();
    }

    /** A task on the manual clock's queue; guarded by the queue. */
    private final class Manual implements Scheduled, Comparable<Manual> {
        final Instant at;
        final long order;
        Runnable task;
        boolean done;

        Manual(Instant at, long order, Runnable task) {
            this.at = at;
            this.order = order;
            this.task = task;
        }

        @Override
        public int compareTo(Manual o) {
            int c = at.compareTo(o.at);
            return c != 0 ? c : Long.compare(order, o.order);
        }

        @Override
        public void cancel() {
            synchronized (due) {
                if (!done) {
                    done = true;
                    task = null;
                    due.remove(this);
                }
            }
        }

        @Override
        public boolean isDone() {
            synchronized (due) {
                return done;
            }
        }
    }

    private record Timed(ScheduledFuture<?> future) implements Scheduled {
        @Override
        public void cancel() {
            // removed from the timer's queue at once (remove-on-cancel), so a long wait holds nothing
            future.cancel(false);
        }

        @Override
        public boolean isDone() {
            return future.isDone();
        }
    }

    private static final Scheduled NEVER = new Scheduled() {
        @Override
        public void cancel() {}

        @Override
        public boolean isDone() {
            return true;
        }
    };

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
    public Scheduled schedule(Instant at, Runnable task) {
        if (manual != null) {
            Manual m = new Manual(at, order.incrementAndGet(), task);
            synchronized (due) {
                due.add(m);
            }
            runDue();
            return m;
        }
        long nanos = Duration.between(clock.instant(), at).toNanos();
        // round up to whole microseconds past the instant: never early
        long delay = Math.max(0, nanos) + 1_000;
        try {
            return new Timed(timer.schedule(task, delay, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException e) {
            // closed: nothing more runs
            return NEVER;
        }
    }

    private void runDue() {
        while (true) {
            Manual next;
            Runnable task;
            synchronized (due) {
                next = due.peek();
                if (next == null || next.at.isAfter(clock.instant())) {
                    return;
                }
                due.poll();
                next.done = true;
                task = next.task;
                next.task = null;
            }
            try {
                runner.execute(task);
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
