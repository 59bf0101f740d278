package io.worldflow.world.jdbc;

import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The runs an append write is asked to create with their first turn leased to one worker
 * ({@link io.worldflow.spi.WorkerAccess#appendLeasingStarts}), and the leases it granted. A write that is tried again
 * starts over ({@link #reset}).
 */
public final class StartLeases {

    private final Set<String> ids;
    private final String owner;
    private final Instant expires;
    private final Instant now;
    private final List<Lease> leases = new ArrayList<>();
    private final Map<String, LoadedRun> runs = new LinkedHashMap<>();

    StartLeases(Set<String> ids, String owner, Instant expires, Instant now) {
        this.ids = Set.copyOf(ids);
        this.owner = owner;
        this.expires = expires;
        this.now = now;
    }

    /**
     * Whether {@code run}'s first turn is to be leased when the write creates it: asked for, due by now, and not waiting
     * to be admitted.
     */
    public boolean wants(NewRun run) {
        return ids.contains(run.runId()) && !run.availableAt().isAfter(now) && !run.waits();
    }

    /** The worker the turns are leased to. */
    public String owner() {
        return owner;
    }

    /** When the leases expire (as stored). */
    public Instant expires() {
        return expires;
    }

    /** The write created {@code run} with its first turn leased under {@code token}. */
    public void leased(NewRun run, String token) {
        leases.add(new Lease(run.runId(), token, run.queue(), expires, 1));
        runs.put(run.runId(), new LoadedRun(run.createdInfo(Micros::truncate), List.of(run.startedEvent())));
    }

    /** Forgets the leases of an attempt of the write that did not commit. */
    void reset() {
        leases.clear();
        runs.clear();
    }

    LeasedRuns granted() {
        return new LeasedRuns(leases, runs);
    }
}
