package io.worldflow.spi;

import io.worldflow.ErrorInfo;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowRetried;

import java.util.List;

/** Runs and their append-only event logs. */
public interface EventLog {

    /**
     * Creates the run with its {@code WorkflowStarted} event at seq 0, status {@code PENDING}, and its
     * first turn due at {@code availableAt}, atomically. Idempotent by id: when the id exists nothing
     * changes and the existing run is returned with {@code created = false}.
     */
    CreateResult create(NewRun run);

    /**
     * Applies each append independently (one may conflict while the others succeed) but, where the
     * store allows, commits them all in one transaction: this is how many runs share one commit.
     *
     * @return one result per append, in order
     */
    List<AppendResult> append(List<Append> appends);

    /**
     * The run's events with seq ≥ {@code fromSeq}, in order.
     *
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     */
    List<Event> read(String runId, long fromSeq);

    /**
     * Marks the run for cancellation and makes it due for a turn, atomically. Idempotent.
     *
     * @throws io.worldflow.RunNotFoundException  when the run does not exist
     * @throws io.worldflow.RunFinishedException  when it has already finished
     */
    void requestCancel(String runId, String reason);

    /**
     * Reopens a {@code FAILED} run so that it runs again, atomically: appends {@code retried} at seq
     * {@code retried.seq()} (which must be the log's length), sets the status to {@code PENDING}, clears the
     * error, and makes its turn due at {@code retried.at()}.
     *
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     * @throws io.worldflow.RunStateException    when the run is not {@code FAILED}, or its log's length is not
     *                                           {@code retried.seq()}; nothing changes
     */
    void reopen(WorkflowRetried retried);

    /**
     * Records why the run is held (its code no longer matches its history). The hold is cleared by the
     * run's next successful append.
     */
    void hold(String runId, ErrorInfo reason);
}
