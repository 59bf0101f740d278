package io.worldflow;

import java.time.Instant;
import java.util.Set;

/**
 * A filter over runs, newest first, paginated by an opaque cursor. Every filter given must hold.
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
 * @param attributes    only runs whose search attributes include each of these, of the same type and equal value;
 *                      empty for all
 * @param queue         only runs of this queue; null for all
 * @param updatedAfter  only runs whose projection last changed at or after this instant; null for no bound
 * @param updatedBefore only runs whose projection last changed before this instant; null for no bound
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
        String parent,
        SearchAttributes attributes,
        String queue,
        Instant updatedAfter,
        Instant updatedBefore) {

    public static final int MAX_LIMIT = 1000;

    public RunQuery {
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        attributes = attributes == null ? SearchAttributes.empty() : attributes;
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", was " + limit);
        }
        checkRange("created", createdAfter, createdBefore);
        checkRange("updated", updatedAfter, updatedBefore);
    }

    /** A range that holds no instant is a mistake in the query, not a question whose answer is no run. */
    private static void checkRange(String what, Instant after, Instant before) {
        if (after != null && before != null && !after.isBefore(before)) {
            throw new IllegalArgumentException(what + "After (" + after + ") must be before " + what + "Before ("
                    + before + "): no instant is in" + " between");
        }
    }

    /** A query of the filters it had before it could filter by search attributes, queue and update time. */
    public RunQuery(
            Set<RunStatus> statuses,
            Boolean held,
            String workflow,
            String idPrefix,
            Instant createdAfter,
            Instant createdBefore,
            int limit,
            String cursor,
            String parent) {
        this(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                null,
                null,
                null,
                null);
    }

    /** All runs, 50 per page. */
    public static RunQuery all() {
        return new RunQuery(Set.of(), null, null, null, null, null, 50, null, null);
    }

    public RunQuery withStatuses(RunStatus... s) {
        return new RunQuery(
                Set.of(s),
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    /** Only held runs ({@code true}), only runs not held ({@code false}), or both ({@code null}). */
    public RunQuery withHeld(Boolean h) {
        return new RunQuery(
                statuses,
                h,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    public RunQuery withWorkflow(String w) {
        return new RunQuery(
                statuses,
                held,
                w,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    public RunQuery withIdPrefix(String p) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                p,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    public RunQuery withCreated(Instant after, Instant before) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                after,
                before,
                limit,
                cursor,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    public RunQuery withLimit(int l) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                l,
                cursor,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    /** Only the runs that run {@code runId} started as its children. */
    public RunQuery withParent(String runId) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                runId,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    public RunQuery withCursor(String c) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                c,
                parent,
                attributes,
                queue,
                updatedAfter,
                updatedBefore);
    }

    /** Only runs whose search attribute {@code key} is {@code value} (in addition to the attributes asked before). */
    public <T> RunQuery withAttribute(SearchKey<T> key, T value) {
        return withAttributes(attributes.with(key, value));
    }

    /** Only runs whose search attributes include each of {@code all}, in place of those asked before. */
    public RunQuery withAttributes(SearchAttributes all) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                all,
                queue,
                updatedAfter,
                updatedBefore);
    }

    /** Only runs of queue {@code q}. */
    public RunQuery withQueue(String q) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                attributes,
                q,
                updatedAfter,
                updatedBefore);
    }

    /** Only runs whose projection last changed at or after {@code after} and before {@code before} (each optional). */
    public RunQuery withUpdated(Instant after, Instant before) {
        return new RunQuery(
                statuses,
                held,
                workflow,
                idPrefix,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                parent,
                attributes,
                queue,
                after,
                before);
    }
}
