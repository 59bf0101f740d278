package io.worldflow;

import java.time.Instant;
import java.util.Set;

/**
 * A filter over runs, newest first, paginated by an opaque cursor.
 *
 * @param statuses      only runs in one of these statuses; empty for all
 * @param held          only held runs when true, only runs not held when false; null for both
 * @param workflow      only runs of this workflow; null for all
 * @param idPrefix      only runs whose id starts with this; null for all
 * @param createdAfter  only runs created at or after this instant; null for no bound
 * @param createdBefore only runs created before this instant; null for no bound
 * @param limit         page size, 1..1000
 * @param cursor        the {@link RunPage#nextCursor()} of the previous page, or null for the first
 * @param parent        only the child runs of this run; null for all runs
 */
public record RunQuery(
        Set<RunStatus> statuses,
        Boolean held,
        String workflow,
        String idPrefix,
        Instant createdAfter,
        Instant createdBefore,
        int limit,
        String cursor,
        String parent) {

    public static final int MAX_LIMIT = 1000;

    public RunQuery {
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", was " + limit);
        }
    }

    /** All runs, 50 per page. */
    public static RunQuery all() {
        return new RunQuery(Set.of(), null, null, null, null, null, 50, null, null);
    }

    public RunQuery withStatuses(RunStatus... s) {
        return new RunQuery(Set.of(s), held, workflow, idPrefix, createdAfter, createdBefore, limit, cursor, parent);
    }

    /** Only held runs ({@code true}), only runs not held ({@code false}), or both ({@code null}). */
    public RunQuery withHeld(Boolean h) {
        return new RunQuery(statuses, h, workflow, idPrefix, createdAfter, createdBefore, limit, cursor, parent);
    }

    public RunQuery withWorkflow(String w) {
        return new RunQuery(statuses, held, w, idPrefix, createdAfter, createdBefore, limit, cursor, parent);
    }

    public RunQuery withIdPrefix(String p) {
        return new RunQuery(statuses, held, workflow, p, createdAfter, createdBefore, limit, cursor, parent);
    }

    public RunQuery withCreated(Instant after, Instant before) {
        return new RunQuery(statuses, held, workflow, idPrefix, after, before, limit, cursor, parent);
    }

    public RunQuery withLimit(int l) {
        return new RunQuery(statuses, held, workflow, idPrefix, createdAfter, createdBefore, l, cursor, parent);
    }

    /** Only the runs that run {@code runId} started as its children. */
    public RunQuery withParent(String runId) {
        return new RunQuery(statuses, held, workflow, idPrefix, createdAfter, createdBefore, limit, cursor, runId);
    }

    public RunQuery withCursor(String c) {
        return new RunQuery(statuses, held, workflow, idPrefix, createdAfter, createdBefore, limit, c, parent);
    }
}
