package io.worldflow.spi;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.event.WorkflowStarted;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A run to create.
 *
 * @param runId       its id (the idempotency key)
 * @param workflow    the workflow name
 * @param input       the input payload
 * @param createdAt   now
 * @param availableAt its first turn is due at this instant (a delayed start is later than {@code createdAt})
 * @param deadline    null for none
 * @param queue       the queue its turns go to
 * @param priority    higher first
 * @param parent      the run that starts it as a child, or null
 * @param continuedFrom the run it continues ({@code continueAsNew}): the run whose ending append starts it and carries
 *                    its signals to it ({@link Append#carrySignalsTo}); null for any other run
 * @param schedule    the schedule that starts it, or null
 * @param scheduledFor the schedule's fire time that starts it, or null
 * @param turnQueue   the queue its first turn goes to: {@code queue}, or for a run that waits to be admitted by its
 *                    queue's limits, the queue it waits in, from which the runtime moves its turn to {@code queue}
 *                    ({@link TaskQueue#move}); a world never leases such a turn as it creates the run
 * @param key         the run's ordering key within its queue, kept with its turn ({@link TaskQueue#waiting}), or null
 * @param actor       who starts it ({@link io.worldflow.Actors}), or null
 * @param searchAttributes its search attributes as it starts, which the world indexes with it; empty for none
 * @param traceParent the W3C {@code traceparent} its spans continue, which its first event records; null for none
 * @param traceState  the W3C {@code tracestate} that goes with it, or null
 */
public record NewRun(
        String runId,
        String workflow,
        Payload input,
        Instant createdAt,
        Instant availableAt,
        Instant deadline,
        String queue,
        int priority,
        String parent,
        String continuedFrom,
        String schedule,
        Instant scheduledFor,
        String turnQueue,
        String key,
        String actor,
        SearchAttributes searchAttributes,
        String traceParent,
        String traceState) {

    public NewRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(workflow, "workflow");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(availableAt, "availableAt");
        Objects.requireNonNull(queue, "queue");
        turnQueue = turnQueue == null ? queue : turnQueue;
        searchAttributes = searchAttributes == null ? SearchAttributes.empty() : searchAttributes;
    }

    /** A run started without tracing. */
    public NewRun(
            String runId,
            String workflow,
            Payload input,
            Instant createdAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            String parent,
            String continuedFrom,
            String schedule,
            Instant scheduledFor,
            String turnQueue,
            String key,
            String actor,
            SearchAttributes searchAttributes) {
        this(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                turnQueue,
                key,
                actor,
                searchAttributes,
                null,
                null);
    }

    /** A run started without search attributes. */
    public NewRun(
            String runId,
            String workflow,
            Payload input,
            Instant createdAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            String parent,
            String continuedFrom,
            String schedule,
            Instant scheduledFor,
            String turnQueue,
            String key,
            String actor) {
        this(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                turnQueue,
                key,
                actor,
                null);
    }

    /** This run as the successor of {@code predecessor}, which continues as new into it ({@link #continuedFrom}). */
    public NewRun withContinuedFrom(String predecessor) {
        return new NewRun(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                predecessor,
                schedule,
                scheduledFor,
                turnQueue,
                key,
                actor,
                searchAttributes,
                traceParent,
                traceState);
    }

    /** This run, with the search attributes {@code attributes}. */
    public NewRun withSearchAttributes(SearchAttributes attributes) {
        return new NewRun(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                turnQueue,
                key,
                actor,
                attributes,
                traceParent,
                traceState);
    }

    /** This run, its spans continuing the trace of {@code parentTrace} (a W3C {@code traceparent}) and its state. */
    public NewRun withTrace(String parentTrace, String state) {
        return new NewRun(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                turnQueue,
                key,
                actor,
                searchAttributes,
                parentTrace,
                parentTrace == null ? null : state);
    }

    /** This run, started by {@code who} ({@link io.worldflow.Actors}), which its first event records. */
    public NewRun withActor(String who) {
        return with(turnQueue, key, who);
    }

    /** A run that starts on its own queue, without a key. */
    public NewRun(
            String runId,
            String workflow,
            Payload input,
            Instant createdAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            String parent,
            String continuedFrom,
            String schedule,
            Instant scheduledFor) {
        this(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                null,
                null,
                null);
    }

    /** Whether its first turn waits in another queue to be admitted, rather than in {@code queue}. */
    public boolean waits() {
        return !turnQueue.equals(queue);
    }

    /** This run, its first turn waiting in {@code waitIn} with the ordering key {@code key}. */
    public NewRun waitingIn(String waitIn, String orderKey) {
        return with(waitIn, orderKey, actor);
    }

    private NewRun with(String turn, String orderKey, String who) {
        return new NewRun(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                turn,
                orderKey,
                who,
                searchAttributes,
                traceParent,
                traceState);
    }

    /** A run no schedule starts. */
    public NewRun(
            String runId,
            String workflow,
            Payload input,
            Instant createdAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            String parent,
            String continuedFrom) {
        this(
                runId,
                workflow,
                input,
                createdAt,
                availableAt,
                deadline,
                queue,
                priority,
                parent,
                continuedFrom,
                null,
                null);
    }

    /** A run that continues no other. */
    public NewRun(
            String runId,
            String workflow,
            Payload input,
            Instant createdAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority,
            String parent) {
        this(runId, workflow, input, createdAt, availableAt, deadline, queue, priority, parent, null, null, null);
    }

    /** A run of no parent. */
    public NewRun(
            String runId,
            String workflow,
            Payload input,
            Instant createdAt,
            Instant availableAt,
            Instant deadline,
            String queue,
            int priority) {
        this(runId, workflow, input, createdAt, availableAt, deadline, queue, priority, null, null, null, null);
    }

    /**
     * The run's projection right after its creation, for a world that answers a create without reading it back.
     *
     * @param stored an instant as the world stores it (to its precision)
     */
    public RunInfo createdInfo(UnaryOperator<Instant> stored) {
        Instant created = stored.apply(createdAt);
        Instant due = stored.apply(availableAt);
        Instant until = deadline == null ? null : stored.apply(deadline);
        return new RunInfo(
                runId,
                workflow,
                RunStatus.PENDING,
                input,
                null,
                null,
                created,
                created,
                due,
                until,
                queue,
                priority,
                1,
                null,
                null,
                null,
                parent,
                searchAttributes,
                key);
    }

    /** The first event of its log, which {@link EventLog#create} writes at seq 0. */
    public WorkflowStarted startedEvent() {
        return new WorkflowStarted(
                runId,
                0,
                createdAt,
                workflow,
                input,
                deadline,
                parent,
                continuedFrom,
                schedule,
                scheduledFor,
                actor,
                searchAttributes.isEmpty() ? null : SearchValues.changes(searchAttributes, List.of()),
                traceParent,
                traceState);
    }
}
