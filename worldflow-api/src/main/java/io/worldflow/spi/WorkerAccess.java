package io.worldflow.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a worker asks of a world to take turns and start them. Each request can be answered the plain way, from the
 * other facets ({@link PlainWorkerAccess}), or in fewer trips where the store can combine them; every world declares
 * which through {@link World#workerAccess()}, so that no request falls back silently. Whichever path a world takes,
 * its answers are the plain ones: the conformance kit checks both.
 */
public interface WorkerAccess {

    /**
     * Leases turns as {@link TaskQueue#lease(String, Set, int, Duration, Duration)} does and, where the store can do
     * both in one request, reads their runs as {@link #load} would: an idle worker then starts a turn after one round
     * trip. Runs it leaves out of {@link LeasedRuns#runs()} the worker reads with {@link #load}, off its leasing thread.
     *
     * @throws IllegalArgumentException when {@code leaseFor} is not positive or {@code lookahead} is negative
     */
    LeasedRuns leaseAndLoad(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead);

    /**
     * The runs a worker has just leased, each with its projection and whole log. A run that does not exist is left
     * out.
     */
    Map<String, LoadedRun> load(Collection<String> runIds);

    /**
     * Creates the run as {@link EventLog#create} does and, where the store can, when this call created it and its
     * first turn is due by now, leases that turn to {@code workerId} for {@code leaseFor} in the same write: a run
     * started in a process whose worker serves its queue then begins there at once. The turn is like any other leased
     * turn: no other worker gets it while the lease holds, its holder extends, completes or releases it, and it is
     * delivered again when the lease lapses.
     *
     * @return the result, with the lease when the turn was leased to {@code workerId}
     * @throws IllegalArgumentException when {@code leaseFor} is not positive (nothing is created)
     */
    CreateResult createLeased(NewRun run, String workerId, Duration leaseFor);

    /**
     * Appends as {@link EventLog#append} does and, where the store can, leases to {@code workerId} for {@code leaseFor}
     * in the same write the first turn of each run that the appends create ({@link Append#starts}) whose id is in
     * {@code startsToLease} and whose first turn is due by now: a child or successor recorded by a run of this worker
     * then begins here at once, without a notice, a lease and a read. Nobody else is told of a leased turn; the lease is
     * like any other ({@link #createLeased}). A run that existed already, or whose append was refused, is not leased.
     *
     * @return the appends' results, and the leases with the runs they hold (projection and first event)
     * @throws IllegalArgumentException when {@code leaseFor} is not positive (nothing is written)
     */
    LeasedAppends appendLeasingStarts(
            List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor);

    /**
     * Moves turns as {@link TaskQueue#move} does and, where the store can, leases to {@code workerId} for
     * {@code leaseFor} in the same write the moved turns of the runs in {@code toLease}, when they are due by now: runs
     * that a worker admits to a queue it serves then begin there at once, without a notice to every worker, a race for
     * the lease and a read. Nobody is told of a leased turn; the others are announced as {@link TaskQueue#move}
     * announces them. The lease is like any other ({@link #createLeased}).
     *
     * @return the leases granted, each on a moved turn of a run in {@code toLease}, with the runs read along with them
     *     where the store could (the worker reads the others with {@link #load})
     * @throws IllegalArgumentException when {@code leaseFor} is not positive (nothing is moved)
     */
    LeasedRuns moveLeasing(
            Collection<String> runIds,
            String from,
            String to,
            Instant at,
            Set<String> toLease,
            String workerId,
            Duration leaseFor);

    /**
     * Whether {@link #moveLeasing} leases the turns it is asked to (when they are due by now), or only moves them, as
     * {@link PlainWorkerAccess} does. A worker admits runs of a rate-limited queue ahead of their starts only where
     * moves lease: it holds each such run, leased, until its start, so that no other worker begins it earlier.
     */
    boolean leasesMoves();

    /**
     * Whether {@link EventLog#append} does its work in the calling process without waiting on another (an embedded
     * database). The runtime then lets a workflow thread that is about to wait for an append carry the batch out
     * itself when no commit is in flight, instead of waking a committing thread and being woken by it. A store reached
     * over the network says false: a virtual thread waiting on a socket costs a hand-off of its own.
     */
    boolean appendsInProcess();
}
