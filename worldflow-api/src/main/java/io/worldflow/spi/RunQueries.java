package io.worldflow.spi;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;

import java.util.Map;
import java.util.Optional;

/** Reads of the run projection. The timeline of a run is {@link EventLog#read}. */
public interface RunQueries {

    Optional<RunInfo> get(String runId);

    /**
     * Runs matching the query, newest first ({@code createdAt} descending, then id descending).
     *
     * @throws IllegalArgumentException when the cursor is malformed
     */
    RunPage list(RunQuery query);

    /** How many runs match the query's filters, per status (statuses, cursor and limit are ignored). */
    Map<RunStatus, Long> countByStatus(RunQuery query);
}
