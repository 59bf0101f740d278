package io.worldflow.spi;

import io.worldflow.RunInfo;

import java.util.Objects;

/**
 * @param run     the run as it now stands
 * @param created false when a run with that id already existed (and was returned unchanged)
 * @param lease   the lease on the new run's first turn when {@link WorkerAccess#createLeased} leased it to the caller,
 *                otherwise null
 */
public record CreateResult(RunInfo run, boolean created, Lease lease) {

    public CreateResult {
        Objects.requireNonNull(run, "run");
        if (lease != null && !created) {
            throw new IllegalArgumentException("only a run created by this call can come with a lease of its turn");
        }
    }

    /** A result without a lease. */
    public CreateResult(RunInfo run, boolean created) {
        this(run, created, null);
    }
}
