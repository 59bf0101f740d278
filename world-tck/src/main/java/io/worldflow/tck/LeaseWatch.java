package io.worldflow.tck;

import io.worldflow.spi.Append;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kit's world, lent as {@link SharedWorld} lends it, noting which runs a worker leased by asking for due turns and
 * which it was given with the write that created them or admitted them to their queue: how a test tells where a
 * run's turn came from.
 */
final class LeaseWatch extends SharedWorld {

    private final World world;
    private final Set<String> leasedByAsking = ConcurrentHashMap.newKeySet();
    private final Set<String> leasedAsStarted = ConcurrentHashMap.newKeySet();
    private final Set<String> leasedAsAdmitted = ConcurrentHashMap.newKeySet();
    private final AtomicInteger asks = new AtomicInteger();

    LeaseWatch(World world) {
        super(world);
        this.world = world;
    }

    /** Runs whose turn a worker got by asking for due turns. */
    Set<String> leasedByAsking() {
        return Set.copyOf(leasedByAsking);
    }

    /** How many times a worker has asked for due turns and been answered. */
    int asks() {
        return asks.get();
    }

    /** Runs whose turn came with the move that admitted them to their queue. */
    Set<String> leasedAsAdmitted() {
        return Set.copyOf(leasedAsAdmitted);
    }

    /** Runs whose first turn came with the append that created them. */
    Set<String> leasedAsStarted() {
        return Set.copyOf(leasedAsStarted);
    }

    @Override
    public WorkerAccess workerAccess() {
        return new ForwardingWorkerAccess(world.workerAccess()) {
            @Override
            public LeasedRuns leaseAndLoad(
                    String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
                LeasedRuns leased = super.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
                leased.leases().forEach(l -> leasedByAsking.add(l.runId()));
                asks.incrementAndGet();
                return leased;
            }

            @Override
            public LeasedAppends appendLeasingStarts(
                    List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
                LeasedAppends out = super.appendLeasingStarts(appends, startsToLease, workerId, leaseFor);
                out.started().leases().forEach(l -> leasedAsStarted.add(l.runId()));
                return out;
            }

            @Override
            public LeasedRuns moveLeasing(
                    Collection<String> runIds,
                    String from,
                    String to,
                    Instant at,
                    Set<String> toLease,
                    String workerId,
                    Duration leaseFor) {
                LeasedRuns leased = super.moveLeasing(runIds, from, to, at, toLease, workerId, leaseFor);
                leased.leases().forEach(l -> leasedAsAdmitted.add(l.runId()));
                return leased;
            }
        };
    }
}
