package io.worldflow.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Lease-based delivery of run turns. A run has at most one pending turn: asking for another while one
 * is pending keeps the earlier due time; asking while the run is leased makes it due again as soon as
 * the lease ends. Durable timers are turns due later: a sleeping run's turn is due at its wake time,
 * and the orchestrator records {@code TimerFired} (fenced by the log's expected sequence, so exactly once).
 */
public interface TaskQueue {

    /**
     * Claims up to {@code max} due, unleased turns from {@code queues}, highest priority first then
     * earliest due, including turns whose lease has expired, and turns that become due within {@code lookahead}
     * from now, so that a worker can load a sleeping run just before its wake-up and resume it on time (the
     * orchestrator waits in memory for the rest).
     *
     * @throws IllegalArgumentException when {@code leaseFor} is not positive or {@code lookahead} is negative
     */
    List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead);

    /** Claims the turns due by now: {@link #lease(String, Set, int, Duration, Duration)} without a lookahead. */
    default List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor) {
        return lease(workerId, queues, max, leaseFor, Duration.ZERO);
    }

    /**
     * Extends a lease (heartbeat).
     *
     * @return the extended lease, or empty when the lease was lost (expired and taken, or completed)
     */
    Optional<Lease> extend(Lease lease, Duration leaseFor);

    /**
     * Ends a turn: the run's next turn is due at {@code wakeAt}, or not at all when null, unless a turn
     * was requested while leased. A stale lease does nothing.
     */
    void complete(Lease lease, Instant wakeAt);

    /** Hands a turn back unfinished: it is due again at once. A stale lease does nothing. */
    void release(Lease lease);

    /** Makes the run due for a turn at {@code at} (or keeps an earlier due time). No-op for an unknown or finished run. */
    void enqueue(String runId, Instant at);

    /**
     * The earliest instant at which a turn of {@code queues} can be leased, for sleeping until then: the
     * due time of an unleased turn, or the expiry of a leased one (when it would be delivered again).
     */
    Optional<Instant> nextDue(Set<String> queues);

    /**
     * Asks to be told when turns become due (or will at the given instant), so an idle worker reacts
     * at once instead of polling. A world without push support returns a subscription that never calls.
     * Listeners must return quickly; a world calls them after its write has committed, on a thread of
     * its own (never while holding a lock or inside the caller's write).
     */
    Subscription subscribe(Consumer<Instant> dueAt);

    /** Stops a {@link #subscribe} listener. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Checks a lease request's arguments as {@link #lease} says, for every world alike.
     *
     * @param lookahead null when the request has none
     * @throws IllegalArgumentException when {@code leaseFor} is not positive or {@code lookahead} is negative
     */
    static void checkLease(Duration leaseFor, Duration lookahead) {
        Objects.requireNonNull(leaseFor, "leaseFor");
        if (leaseFor.isNegative() || leaseFor.isZero()) {
            throw new IllegalArgumentException("leaseFor must be positive, was " + leaseFor);
        }
        if (lookahead != null && lookahead.isNegative()) {
            throw new IllegalArgumentException("lookahead must not be negative, was " + lookahead);
        }
    }
}
