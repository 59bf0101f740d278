package io.worldflow.spi;

import io.worldflow.ErrorInfo;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowRetried;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Runs and their append-only event logs. */
public interface EventLog {

    /**
     * Creates the run with its {@code WorkflowStarted} event at seq 0, status {@code PENDING}, and its
     * first turn due at {@code availableAt}, atomically. Idempotent by id: when the id exists nothing
     * changes and the existing run is returned with {@code created = false}.
     */
    CreateResult create(NewRun run);

    /**
     * Creates each run as {@link #create} does, where the store allows in one write: many runs due at once (a second's
     * fires of many schedules) then cost one commit rather than one each. A run whose id exists is left as it is.
     */
    default void createAll(List<NewRun> runs) {
        for (NewRun run : runs) {
            create(run);
        }
    }

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
    default void requestCancel(String runId, String reason) {
        requestCancel(runId, reason, false);
    }

    /**
     * Marks the run for cancellation, or with {@code terminate} for termination, and makes it due for a turn,
     * atomically. A termination once requested stays requested (a later plain cancellation leaves it), and a
     * cancellation may be raised to one. Idempotent otherwise.
     *
     * @throws io.worldflow.RunNotFoundException  when the run does not exist
     * @throws io.worldflow.RunFinishedException  when it has already finished
     */
    default void requestCancel(String runId, String reason, boolean terminate) {
        requestCancel(runId, reason, terminate, null);
    }

    /**
     * As {@link #requestCancel(String, String, boolean)}, noting who asked ({@link io.worldflow.Actors}): the first
     * request's asker, or the one who raised a cancellation to a termination.
     *
     * @param actor who asked, or null when not known
     */
    void requestCancel(String runId, String reason, boolean terminate, String actor);

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

    /**
     * The run's log as stored, each record with its link in the run's hash chain, and the run's length and head, read
     * together. Every record a world writes carries its link ({@code io.worldflow.format.LogChain#link}) over the
     * previous one's (the run's head when it is written), and the run's head becomes that link in the same
     * transaction.
     *
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     */
    StoredLog storedLog(String runId);

    /**
     * Deletes up to {@code limit} runs that finished ({@code COMPLETED}, {@code FAILED} or {@code CANCELED}) before
     * {@code finishedBefore}, each with everything the world keeps of it: its log, its projection, its pending signals
     * and their idempotency keys, its turn, and its entries in every index (a parent's list of children included).
     * Afterwards the id is unknown ({@link #read} throws {@link io.worldflow.RunNotFoundException}) and may be created
     * again as a new run. A run's finishing time is its projection's {@code updatedAt} while it has a terminal status.
     *
     * <p>A run that has not finished (held or not), or finished at or after {@code finishedBefore}, is left as it is.
     * So is a run that continued as new (its ending append started a run whose {@link NewRun#continuedFrom} names it
     * and carried its signals there, {@link Append#carrySignalsTo}) while that successor is there: a chain goes newest
     * first, once its last run is old enough, so that every id of a chain still kept leads to the chain's last run.
     * When this call deletes a successor, the run it continued is its next candidate, and so on back to the first,
     * while the limit allows: a chain of any length goes in one call.
     * The status is checked as the run is deleted, so a failed run reopened meanwhile ({@link #reopen}) stays. Many
     * callers may purge at once: each run is deleted by one of them and counted by that one only, and none fails
     * because another deleted a run first. Where the store allows, a run goes in one transaction; where it does not,
     * the run is first taken out of reach (it can no longer be reopened), and a deletion cut short by a crash is
     * finished by a later call.
     *
     * @return how many runs this call deleted; fewer than {@code limit} when it found no more (another caller may be
     *         deleting the rest), so a caller purges again until then
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    int purgeFinished(Instant finishedBefore, int limit);

    /**
     * Checks a purge request's arguments as {@link #purgeFinished} says, for every world alike.
     *
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    static void checkPurge(Instant finishedBefore, int limit) {
        Objects.requireNonNull(finishedBefore, "finishedBefore");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
    }
}
