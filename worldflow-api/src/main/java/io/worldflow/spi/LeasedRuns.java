package io.worldflow.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns a worker has just leased, with the runs read for them.
 *
 * @param leases the leases, in leasing order (highest priority, then earliest due)
 * @param runs   the leased runs by id, each with its projection and whole log; a run left out (gone, or not read)
 *               is read by the worker itself
 */
public record LeasedRuns(List<Lease> leases, Map<String, LoadedRun> runs) {

    public LeasedRuns {
        leases = List.copyOf(leases);
        runs = Map.copyOf(Objects.requireNonNull(runs, "runs"));
    }
}
