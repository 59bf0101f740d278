package io.worldflow.runtime.internal;

import io.worldflow.spi.TaskQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A worker's part in admitting runs to the queues it serves that have limits: a round for each such queue when there
 * may be something to admit (a run started or ended in this process, a turn made due anywhere in the world, a change of
 * limits), at the instant the rate limit lets the next run start, and at least every {@link #POLL} otherwise; and now
 * and then a look at long-held places ({@link QueueRunner#audit}). Every worker does the same; each round's write
 * compares and sets the queue's state, so no place is given twice.
 */
public final class AdmissionLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AdmissionLoop.class);
    static final Duration POLL = Duration.ofMillis(250);
    private static final Duration AUDIT_EVERY = Duration.ofSeconds(10);
    private static final Duration NOTICE_GAP = Duration.ofMillis(10);

    private final QueueRunner runner;
    private final Set<String> queues;
    private final InstantSource clock;
    private final Looks looks;
    private final AtomicBoolean noticeDue = new AtomicBoolean();
    private final TaskQueue.Subscription subscription;
    /** Whether the last look found a queue with limits among those served: notices matter only then. */
    private volatile boolean anyLimited;

    private long lastAudit = System.nanoTime();

    /** @param queues the queues this worker serves */
    public AdmissionLoop(QueueRunner runner, Set<String> queues, ClockScheduler scheduler, TaskQueue tasks) {
        this.runner = runner;
        this.queues = Set.copyOf(queues);
        this.clock = scheduler.clock();
        this.looks = new Looks("wf-admission", this::look, scheduler);
        runner.admittedBy(this::poke);
        this.subscription = tasks.subscribe(at -> noticed());
    }

    /**
     * A turn was made due somewhere in the world, perhaps a run's that waits here: look soon. Notices come with every
     * turn of every run, so they are gathered into one look per {@link #NOTICE_GAP}.
     */
    private void noticed() {
        if (!looks.closed() && anyLimited && noticeDue.compareAndSet(false, true)) {
            Thread.ofVirtual().name("wf-admission-notice").start(() -> {
                try {
                    Thread.sleep(NOTICE_GAP);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                noticeDue.set(false);
                poke();
            });
        }
    }

    /** Looks now, off the caller's thread (or once more after the look under way). */
    public void poke() {
        looks.poke();
    }

    /** A round for each queue with limits, and now and then the audit; returns when to look next. */
    private Instant look() {
        Instant next = null;
        try {
            boolean limited = false;
            for (String queue : queues) {
                if (looks.closed() || !runner.hasLimits(queue)) {
                    continue;
                }
                limited = true;
                Instant retry = runner.admit(queue);
                if (retry != null && (next == null || retry.isBefore(next))) {
                    next = retry;
                }
            }
            anyLimited = limited;
            if (System.nanoTime() - lastAudit > AUDIT_EVERY.toNanos()) {
                lastAudit = System.nanoTime();
                for (String queue : queues) {
                    if (!looks.closed() && runner.hasLimits(queue)) {
                        runner.audit(queue);
                    }
                }
            }
        } catch (RuntimeException e) {
            log.warn("admitting runs failed ({}); trying again in {}", e.toString(), POLL);
        }
        Instant poll = clock.instant().plus(POLL);
        return next == null || next.isAfter(poll) ? poll : next;
    }

    @Override
    public void close() {
        looks.close();
        subscription.close();
    }
}
