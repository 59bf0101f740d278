package io.worldflow.tck;

import io.worldflow.spi.Append;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.WorkerAccess;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A world's worker access, passed through; a test overrides what it watches or holds back. */
class ForwardingWorkerAccess implements WorkerAccess {

    private final WorkerAccess access;

    ForwardingWorkerAccess(WorkerAccess access) {
        this.access = access;
    }

    @Override
    public LeasedRuns leaseAndLoad(
            String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return access.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
    }

    @Override
    public Map<String, LoadedRun> load(Collection<String> runIds) {
        return access.load(runIds);
    }

    @Override
    public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
        return access.createLeased(run, workerId, leaseFor);
    }

    @Override
    public LeasedAppends appendLeasingStarts(
            List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
        return access.appendLeasingStarts(appends, startsToLease, workerId, leaseFor);
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
        return access.moveLeasing(runIds, from, to, at, toLease, workerId, leaseFor);
    }

    @Override
    public boolean leasesMoves() {
        return access.leasesMoves();
    }

    @Override
    public boolean appendsInProcess() {
        return access.appendsInProcess();
    }
}
