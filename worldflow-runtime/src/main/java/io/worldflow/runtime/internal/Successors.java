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
     * {@code action} done to run {@code runId}, or, when that run has finished by continuing as new, to the run that
     * continues it (and so on): what is sent or asked of a chain by any of its ids reaches its newest run.
     *
     * @throws RunFinishedException when the run (or the last of its chain) finished otherwise
     */
    public static <T> T onNewest(World world, String runId, Function<String, T> action) {
        String target = runId;
        while (true) {
            try {
                return action.apply(target);
            } catch (RunFinishedException e) {
                String finished = target;
                String successor = world.runQueries()
                        .get(finished)
                        .map(info -> of(world, info))
                        .orElse(null);
                if (successor == null) {
                    throw e;
                }
                target = successor;
            }
        }
    }

    /** The projection of {@code info}'s run, or of the newest run of its chain when it continued as new. */
    public static RunInfo newest(World world, RunInfo info) {
        RunInfo current = info;
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
        }
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
