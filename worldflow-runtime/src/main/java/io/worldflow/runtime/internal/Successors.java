package io.worldflow.runtime.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.spi.World;

import java.util.List;

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
