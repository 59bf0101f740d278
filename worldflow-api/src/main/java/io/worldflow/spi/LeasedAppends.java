package io.worldflow.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of {@link WorkerAccess#appendLeasingStarts}: what {@link EventLog#append} would have returned, and the
 * runs the appends created whose first turn the same write leased to the caller.
 *
 * @param results one per append, in order
 * @param started the leases on the created runs' first turns, each run with its projection and first event
 */
public record LeasedAppends(List<AppendResult> results, LeasedRuns started) {

    public LeasedAppends {
        results = List.copyOf(results);
        Objects.requireNonNull(started, "started");
    }

    /** Results without a leased start. */
    public static LeasedAppends none(List<AppendResult> results) {
        return new LeasedAppends(results, new LeasedRuns(List.of(), Map.of()));
    }
}
