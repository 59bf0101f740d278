package io.worldflow;

import java.time.Instant;
import java.util.Objects;

/**
 * A run's current state: the projection the world keeps next to its event log.
 *
 * @param runId           the run's id
 * @param workflow        the workflow name
 * @param status          current status
 * @param input           the input payload
 * @param output          the result payload once {@link RunStatus#COMPLETED}, else null
 * @param error           the failure once {@link RunStatus#FAILED}, else null
 * @param createdAt       when the run was created
 * @param updatedAt       when the projection last changed
 * @param availableAt     when the run may first start (later than {@code createdAt} for a delayed start)
 * @param deadline        after this instant no step starts and the run fails; null for none
 * @param queue           the queue its turns are delivered on
 * @param priority        higher is leased first
 * @param logLength       number of events in its log (the next sequence number)
 * @param cancelRequest   the cancellation requested and not yet carried out, or null
 * @param held            why the run is held (its code no longer matches its history, or no worker knows its
 *                        workflow), or null when it is not; a held run keeps the status it had
 * @param heldSince       when the run was first held since it last made progress, or null when it is not held
 * @param parent          the run that started it as a child, or null
 * @param searchAttributes its search attributes now (set at its start and by its workflow); empty for none
 * @param key             the ordering key it was started with in its queue ({@link StartOptions#withKey}), or null
 */
public record RunInfo(
        String runId,
        String workflow,
        RunStatus status,
        Payload input,
        Payload output,
        ErrorInfo error,
        Instant createdAt,
        Instant updatedAt,
        Instant availableAt,
        Instant deadline,
        String queue,
        int priority,
        long logLength,
        CancelRequest cancelRequest,
        ErrorInfo held,
        Instant heldSince,
        String parent,
        SearchAttributes searchAttributes,
        String key) {

    /**
     * A request to cancel a run.
     *
     * @param reason      why, as given by whoever asked; may be null
     * @param requestedAt when it was asked
     * @param terminate   whether the run is to end without running any more of its code (no cleanup), rather than
     *                    be told at its next primitive
     * @param actor       who asked ({@link Actors}): the first asker, or the one who asked for the termination; null
     *                    when not known
     */
    public record CancelRequest(String reason, Instant requestedAt, boolean terminate, String actor) {

        /** A request whose asker is not known. */
        public CancelRequest(String reason, Instant requestedAt, boolean terminate) {
            this(reason, requestedAt, terminate, null);
        }
    }

    public RunInfo {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(workflow, "workflow");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        searchAttributes = searchAttributes == null ? SearchAttributes.empty() : searchAttributes;
    }

    /** A run without an ordering key. */
    public RunInfo(
            String runId,
            String workflow,
            RunStatus status,
            Payload input,
            Payload output,
            ErrorInfo error,
            Instant createdAt,
            Instant updatedAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            long logLength,
            CancelRequest cancelRequest,
            ErrorInfo held,
            Instant heldSince,
            String parent,
            SearchAttributes searchAttributes) {
        this(
                runId,
                workflow,
                status,
                input,
                output,
                error,
                createdAt,
                updatedAt,
                availableAt,
                deadline,
                queue,
                priority,
                logLength,
                cancelRequest,
                held,
                heldSince,
                parent,
                searchAttributes,
                null);
    }

    /** A run without search attributes. */
    public RunInfo(
            String runId,
            String workflow,
            RunStatus status,
            Payload input,
            Payload output,
            ErrorInfo error,
            Instant createdAt,
            Instant updatedAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            long logLength,
            CancelRequest cancelRequest,
            ErrorInfo held,
            Instant heldSince,
            String parent) {
        this(
                runId,
                workflow,
                status,
                input,
                output,
                error,
                createdAt,
                updatedAt,
                availableAt,
                deadline,
                queue,
                priority,
                logLength,
                cancelRequest,
                held,
                heldSince,
                parent,
                null,
                null);
    }

    /** A run of no parent. */
    public RunInfo(
            String runId,
            String workflow,
            RunStatus status,
            Payload input,
            Payload output,
            ErrorInfo error,
            Instant createdAt,
            Instant updatedAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            long logLength,
            CancelRequest cancelRequest,
            ErrorInfo held,
            Instant heldSince) {
        this(
                runId,
                workflow,
                status,
                input,
                output,
                error,
                createdAt,
                updatedAt,
                availableAt,
                deadline,
                queue,
                priority,
                logLength,
                cancelRequest,
                held,
                heldSince,
                null,
                null,
                null);
    }

    public boolean isTerminal() {
        return status.isTerminal();
    }

    /** Whether cancellation was requested and not yet carried out. */
    public boolean cancelRequested() {
        return cancelRequest != null;
    }

    /** Whether the run is held: it neither fails nor goes on until a deploy whose code matches its history. */
    public boolean isHeld() {
        return held != null;
    }
}
