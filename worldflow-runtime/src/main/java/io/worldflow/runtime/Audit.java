package io.worldflow.runtime;

import io.worldflow.ChainReport;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.format.ChainKey;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.internal.StoredState;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.World;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Checks of the audit trail: each run's hash-chained log ({@link LogChain}) verified against what the world stores,
 * and exported with its chain to be verified anywhere. Keyed links ({@link ChainKey#KEY}) are checked with the
 * configured key.
 */
public final class Audit {

    /** Reads of a busy run's log and state, to find the two at the same length, before its state is left unchecked. */
    private static final int STATE_READS = 5;

    private final World world;
    /** The key of the logs' hash chains, or null when they are not keyed. */
    private final ChainKey chainKey;

    Audit(World world, ChainKey chainKey) {
        this.world = world;
        this.chainKey = chainKey;
    }

    /**
     * Checks the run's log as stored: whether every record and the run's head are as they were written, and then
     * whether the run's stored state, which every reader is served (its workflow, status, input, output, error and
     * search attributes), is the one its log says; if not, the first seq where they depart.
     *
     * @throws RunNotFoundException when the run does not exist
     */
    public ChainReport verify(String runId) {
        Objects.requireNonNull(runId, "runId");
        for (int attempt = 1; ; attempt++) {
            StoredLog log = world.eventLog().storedLog(runId);
            ChainReport chain = LogChain.verify(log, chainKey);
            if (!chain.intact()) {
                return chain;
            }
            RunInfo info = world.runQueries().get(runId).orElseThrow(() -> new RunNotFoundException(runId));
            if (info.logLength() != log.logLength() && attempt < STATE_READS) {
                continue; // the run went on between the two reads: read both again
            }
            StoredState.Mismatch mismatch = info.logLength() == log.logLength() ? StoredState.check(log, info) : null;
            return mismatch == null
                    ? chain
                    : new ChainReport(
                            runId,
                            chain.logLength(),
                            chain.chainedFrom(),
                            chain.head(),
                            mismatch.seq(),
                            mismatch.problem());
        }
    }

    /**
     * Checks the chain of every run the query matches, all of its pages (the query's limit is the size of a page read
     * at a time), and returns the reports of those whose chain is broken: none when all hold. A run removed meanwhile
     * is passed over.
     */
    public List<ChainReport> verifyAll(RunQuery query) {
        List<ChainReport> broken = new ArrayList<>();
        RunQuery page = Objects.requireNonNull(query, "query");
        while (true) {
            RunPage runs = world.runQueries().list(page);
            for (RunInfo run : runs.runs()) {
                try {
                    ChainReport report = verify(run.runId());
                    if (!report.intact()) {
                        broken.add(report);
                    }
                } catch (RunNotFoundException gone) {
                    // purged since the page was read: nothing left to check
                }
            }
            if (!runs.hasMore()) {
                return broken;
            }
            page = page.withCursor(runs.nextCursor());
        }
    }

    /**
     * The run's log as stored, each record with its link, and its head, as one JSON document ({@link LogChain#export}):
     * a timeline that {@link LogChain#read} reads back and {@link LogChain#verify} checks away from the world.
     *
     * @throws RunNotFoundException when the run does not exist
     */
    public String exportLog(String runId) {
        return LogChain.export(world.eventLog().storedLog(Objects.requireNonNull(runId, "runId")));
    }
}
