package io.worldflow.spi;

import io.worldflow.RunNotFoundException;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A worker's requests answered from the other facets, one request each: what a world offers when its store combines
 * none of them. A world that combines some extends this and overrides those.
 */
public class PlainWorkerAccess implements WorkerAccess {

    private final World world;

    public PlainWorkerAccess(World world) {
        this.world = Objects.requireNonNull(world, "world");
    }

    /** Leases only: the worker reads the leased runs with {@link #load}. */
    @Override
    public LeasedRuns leaseAndLoad(
            String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return new LeasedRuns(world.taskQueue().lease(workerId, queues, max, leaseFor, lookahead), Map.of());
    }

    /** Reads each run by itself: its projection, then its log. */
    @Override
    public Map<String, LoadedRun> load(Collection<String> runIds) {
        Map<String, LoadedRun> out = new LinkedHashMap<>();
        for (String runId : runIds) {
            world.runQueries().get(runId).ifPresent(info -> {
                try {
                    out.put(runId, new LoadedRun(info, world.eventLog().read(runId, 0)));
                } catch (RunNotFoundException e) {
                    // removed in between: left out
                }
            });
        }
        return out;
    }

    /** Creates only: the turn is leased the usual way. */
    @Override
    public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
        Objects.requireNonNull(workerId, "workerId");
        TaskQueue.checkLease(leaseFor, null);
        return world.eventLog().create(run);
    }

    /** Appends only: the created runs' turns are leased the usual way. */
    @Override
    public LeasedAppends appendLeasingStarts(
            List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
        Objects.requireNonNull(startsToLease, "startsToLease");
        Objects.requireNonNull(workerId, "workerId");
        TaskQueue.checkLease(leaseFor, null);
        return LeasedAppends.none(world.eventLog().append(appends));
    }

    /** Moves only: the moved turns are leased the usual way. */
    @Override
    public LeasedRuns moveLeasing(
            Collection<String> runIds,
            String from,
            String to,
            Instant at,
            Set<String> toLease,
            String workerId,
            Duration leaseFor) {
        Objects.requireNonNull(toLease, "toLease");
        Objects.requireNonNull(workerId, "workerId");
        TaskQueue.checkLease(leaseFor, null);
        world.taskQueue().move(runIds, from, to, at);
        return new LeasedRuns(List.of(), Map.of());
    }

    /** False: {@link #moveLeasing} only moves. */
    @Override
    public boolean leasesMoves() {
        return false;
    }

    /** False: the appends of a world that says nothing else are taken to leave the process. */
    @Override
    public boolean appendsInProcess() {
        return false;
    }
}
