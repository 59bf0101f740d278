package io.worldflow.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
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
     * What waits in {@code queue} to be admitted: the pending turns there, that no one holds, of runs whose own queue is
     * another ({@link NewRun#turnQueue}), in leasing order (highest priority first, then earliest due, then run id), at
     * most {@code limit}, whatever their due time. A world need not list the turns of runs in their own queue.
     *
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    List<WaitingTurn> waiting(String queue, int limit);

    /**
     * Moves the pending, unleased turns of {@code runIds} that are in queue {@code from} to queue {@code to}, due at
     * {@code at}, and tells those who listen ({@link #subscribe}) as for any turn made due. A run whose turn is not
     * pending in {@code from} (leased, moved already, finished, unknown) is left as it is.
     *
     * @return the runs whose turns were moved
     */
    Set<String> move(Collection<String> runIds, String from, String to, Instant at);

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

    /** A pending turn as {@link #waiting} lists it: its run, the run's ordering key (or null), priority and due time. */
    record WaitingTurn(String runId, String key, int priority, Instant availableAt) {

        public WaitingTurn {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(availableAt, "availableAt");
        }
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
