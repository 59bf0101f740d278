package io.worldflow.spi;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where runs live and how work reaches workers. A world is made of small facets; each world
 * implements all of them over one store (a SQLite file, a Postgres database, DynamoDB and SQS).
 * Every method is safe to call from many threads at once.
 */
public interface World extends AutoCloseable {

    /** The world's name, as used in {@code worldflow.world}. */
    String name();

    EventLog eventLog();

    TaskQueue taskQueue();

    Signals signals();

    RunQueries runQueries();

    /**
     * The runs a worker has just leased, each with its projection and whole log, so that a batch of turns
     * starts with one read instead of two per run. A run that does not exist is left out. Worlds that can
     * read many runs at once override this; the default reads each run by itself.
     */
    default Map<String, LoadedRun> load(Collection<String> runIds) {
        Map<String, LoadedRun> out = new LinkedHashMap<>();
        for (String runId : runIds) {
            runQueries().get(runId).ifPresent(info -> {
                try {
                    out.put(runId, new LoadedRun(info, eventLog().read(runId, 0)));
                } catch (io.worldflow.RunNotFoundException e) {
                    // removed in between: left out
                }
            });
        }
        return out;
    }

    /**
     * Leases turns as {@link TaskQueue#lease(String, Set, int, Duration, Duration)} does and, where the store can
     * do both in one request, reads their runs as {@link #load} would: an idle worker then starts a turn after
     * one round trip instead of one for the lease and more for the read. The default only leases; the worker reads the runs it is not given with
     * {@link #load}, off its leasing thread.
     */
    default LeasedRuns leaseAndLoad(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return new LeasedRuns(taskQueue().lease(workerId, queues, max, leaseFor, lookahead), Map.of());
    }

    /**
     * Creates the run as {@link EventLog#create} does and, when this call created it and its first turn is due by now,
     * leases that turn to {@code workerId} for {@code leaseFor} in the same write: a run started in a process whose
     * worker serves its queue then begins there at once, without a wake-up, a lease and a read of what the caller
     * already has. The turn is like any other leased turn: no other worker gets it while the lease holds, its holder
     * extends, completes or releases it, and it is delivered again when the lease lapses. The default creates only,
     * and the turn is leased the usual way.
     *
     * @return the result, with the lease when the turn was leased to {@code workerId}
     * @throws IllegalArgumentException when {@code leaseFor} is not positive (nothing is created)
     */
    default CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(leaseFor, "leaseFor");
        if (leaseFor.isNegative() || leaseFor.isZero()) {
            throw new IllegalArgumentException("leaseFor must be positive, was " + leaseFor);
        }
        return eventLog().create(run);
    }

    /** Releases connections and threads. Idempotent. */
    @Override
    void close();
}
