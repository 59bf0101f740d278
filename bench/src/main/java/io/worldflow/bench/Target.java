package io.worldflow.bench;

import java.util.Map;
import java.util.Optional;

/**
 * A world the benchmarks run against. Each workload gets fresh storage from {@link #freshWorld}; the driver
 * and the worker JVM open the world from the same properties. Adding a world is a class implementing this
 * and a line in {@link Targets}.
 */
interface Target extends AutoCloseable {

    /** Its name, as in {@code worldflow.world}. */
    String name();

    /**
     * Fresh, empty storage for one workload (a new SQLite file, a new schema, new tables…).
     *
     * @return the Worldflow configuration properties that open it ({@code worldflow.world} included)
     */
    Map<String, String> freshWorld(String label);

    /**
     * Whether several processes may open the world at once. If not (local: the file belongs to one process),
     * the driver's client calls go through the worker JVM while it runs.
     */
    boolean shared();

    /**
     * Whether the driver hears of a run's end by a push (the worker's own notice when the calls go through
     * it; the world's end notices otherwise). If not, a waited-for run is looked up every {@code runPollMs}.
     */
    default boolean pushesEnds() {
        return true;
    }

    /** What the world runs on, for the report. */
    String describe();

    /** The server's cost counters, for worlds that have them (Postgres). */
    default Optional<CostCounters> costCounters() {
        return Optional.empty();
    }

    @Override
    void close();

    /** Reads the storage's cumulative counters: commits, WAL bytes, WAL syncs. */
    interface CostCounters {
        Cost read();
    }

    record Cost(long commits, long walBytes, long walSyncs) {
        Cost minus(Cost o) {
            return new Cost(commits - o.commits, walBytes - o.walBytes, walSyncs - o.walSyncs);
        }
    }
}
