package io.worldflow.spi;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;

import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

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

    /**
     * Tells {@code ended} the id of each run that finishes (completes, fails or is canceled) after this
     * returns, in whichever process its end was written, so that a client waiting for a result need not
     * poll. Best effort: a notice may come twice, late, or (while the world's connection is down) not at
     * all, so a waiter still looks at the run now and then. An id of {@code "*"} means "some runs ended,
     * look again". The listener runs on the world's own thread and must return quickly. The default
     * tells nothing: a world in which one process writes everything needs no notice across processes.
     */
    default TaskQueue.Subscription subscribeEnded(Consumer<String> ended) {
        return () -> {};
    }
}
