package io.worldflow.runtime.internal;

import io.worldflow.RunFinishedException;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.spi.World;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The runs of one logical workflow that continues as new: the first run keeps the id it was given, each successor is
 * {@code <first>~<n>} (n = 2, 3, …), so a successor's id is the same however often the hand-over is tried, and what
 * follows a run is found from its log.
 */
public final class Successors {

    private Successors() {}

    /** The first run's id of the chain {@code runId} is in ({@code continuedFrom}: its predecessor, null for a first). */
    static String first(String runId, String continuedFrom) {
        return continuedFrom == null ? runId : runId.substring(0, runId.lastIndexOf('~'));
    }

    /** The id of the run that continues {@code runId}. */
    static String next(String runId, String continuedFrom) {
        int generation = continuedFrom == null ? 1 : Integer.parseInt(runId.substring(runId.lastIndexOf('~') + 1));
        String id = first(runId, continuedFrom) + "~" + (generation + 1);
        if (id.length() > StartOptions.MAX_ID_LENGTH) {
            throw new WorldflowException("run '" + runId + "' cannot continue as new: its successor's id, '" + id
                    + "', would be longer than " + StartOptions.MAX_ID_LENGTH + " characters");
        }
        return id;
    }

    /**
     * {@code action} done to run {@code runId}, or, when that run has finished by continuing as new, to the newest run
     * of its chain: what is sent or asked of a chain by any of its ids reaches its newest run.
     *
     * @throws RunFinishedException when the run (or the last of its chain) finished otherwise
     */
    public static <T> T onNewest(World world, String runId, Function<String, T> action) {
        String target = runId;
        while (true) {
            try {
                return action.apply(target);
            } catch (RunFinishedException e) {
                RunInfo finished = world.runQueries().get(target).orElse(null);
                String newest =
                        finished == null ? null : newest(world, finished).runId();
                if (newest == null || newest.equals(target)) {
                    throw e;
                }
                target = newest; // it may have continued as new meanwhile: then the action refuses it and on we go
            }
        }
    }

    /** The projection of {@code info}'s run, or of the newest run of its chain when it continued as new. */
    public static RunInfo newest(World world, RunInfo info) {
        RunInfo current = info;
        boolean leap = true;
        while (true) {
            String next = of(world, current);
            if (next == null) {
                return current;
            }
            Optional<RunInfo> successor = world.runQueries().get(next);
            if (successor.isEmpty()) {
                return current;
            }
            current = successor.get();
            if (leap) {
                RunInfo far = furthest(world, current);
                if (far == null) {
                    leap = false; // a run of a successor's id that is not one: from here, link by link
                } else {
                    current = far;
                }
            }
        }
    }

    /**
     * The furthest run of the chain that {@code from} (a successor, {@code <first>~<n>}) is in, found by the ids alone:
     * successors are created in order and a chain is deleted newest first, so the ids that exist from {@code n} on are
     * {@code n} to some {@code m}, found by doubling the stride, then halving it, in about 2 log2(m - n) lookups rather
     * than a read of every run's log. Null when the run found is not that chain's (a run started with such an id, which
     * {@code '~'} in an id allows): the last event of its predecessor must name it.
     */
    private static RunInfo furthest(World world, RunInfo from) {
        String id = from.runId();
        int tilde = id.lastIndexOf('~');
        String first = id.substring(0, tilde);
        long low = Long.parseLong(id.substring(tilde + 1));
        RunInfo found = from;
        long stride = 1;
        long high = -1;
        while (high < 0) {
            Optional<RunInfo> probe = sameChain(world, first, low + stride, from.workflow());
            if (probe.isPresent()) {
                found = probe.get();
                low += stride;
                stride *= 2;
            } else {
                high = low + stride;
            }
        }
        while (high - low > 1) {
            long mid = low + (high - low) / 2;
            Optional<RunInfo> probe = sameChain(world, first, mid, from.workflow());
            if (probe.isPresent()) {
                found = probe.get();
                low = mid;
            } else {
                high = mid;
            }
        }
        if (found == from) {
            return from;
        }
        // a successor's id is made from its chain's first id, so a run whose predecessor continued into it is of a
        // chain
        String predecessor = first + "~" + (low - 1);
        boolean linked = world.runQueries()
                .get(predecessor)
                .map(info -> of(world, info))
                .filter(found.runId()::equals)
                .isPresent();
        return linked ? found : null;
    }

    private static Optional<RunInfo> sameChain(World world, String first, long n, String workflow) {
        if (n > Integer.MAX_VALUE) {
            return Optional.empty();
        }
        return world.runQueries().get(first + "~" + n).filter(r -> r.workflow().equals(workflow));
    }

    /**
     * The run that continued {@code info}'s run, or null when it did not continue as new (a run that did is
     * completed with no output, its last event naming its successor).
     */
    public static String of(World world, RunInfo info) {
        if (info.status() != RunStatus.COMPLETED || info.output() != null) {
            return null;
        }
        List<Event> tail = world.eventLog().read(info.runId(), Math.max(0, info.logLength() - 1));
        return !tail.isEmpty() && tail.getLast() instanceof WorkflowContinuedAsNew c ? c.successorRunId() : null;
    }
}
