package io.worldflow.spi;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
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

    /** Releases connections and threads. Idempotent. */
    @Override
    void close();
}
