package io.worldflow.world.aws.internal;

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
 * The runs appends are asked to create with their first turn leased to the appending worker
 * ({@link io.worldflow.spi.WorkerAccess#appendLeasingStarts}), and the leases their committed transactions granted.
 * Appends of different runs commit side by side, so what is granted is added under this object's monitor.
 */
final class StartLeases {

    private final Set<String> ids;
    private final Instant now;
    private final Instant expires;
    private final List<Lease> leases = new ArrayList<>();
    private final Map<String, LoadedRun> runs = new LinkedHashMap<>();

    StartLeases(Set<String> ids, Instant now, Instant expires) {
        this.ids = Set.copyOf(ids);
        this.now = now;
        this.expires = expires;
    }

    /** Whether {@code run}'s first turn is to be leased as it is created: asked for, due by now, not waiting. */
    boolean wants(NewRun run) {
        return ids.contains(run.runId()) && !run.availableAt().isAfter(now) && !run.waits();
    }

    /** When the leases lapse. */
    Instant expires() {
        return expires;
    }

    /** A committed transaction created {@code run} leased under {@code lease}. */
    synchronized void leased(Lease lease, LoadedRun run) {
        leases.add(lease);
        runs.put(lease.runId(), run);
    }

    synchronized LeasedRuns granted() {
        return new LeasedRuns(leases, runs);
    }
}
