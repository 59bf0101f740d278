package io.worldflow.runtime.internal;

import io.worldflow.ChildOptions;
import io.worldflow.ChildWorkflowFailedException;
import io.worldflow.ErrorInfo;
import io.worldflow.ParentClosePolicy;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.WorldflowException;
import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PendingSignal;

import java.time.Instant;
import java.util.Optional;

/**
 * One {@code child} primitive: the child run started (or found, on replay) under its id, then its end awaited as
 * the signal it sends its parent ({@link ChildRuns}), holding no thread meanwhile. Its outcome is recorded, so a
 * replay returns it without asking the child again.
 */
final class ChildCall<I, O> {

    private final RunExecution exec;
    private final RunContext ctx;
    private final String id;
    private final String name;
    private final Workflow<I, O> workflow;
    private final ChildOptions options;

    ChildCall(
            RunExecution exec, RunContext ctx, String id, String name, Workflow<I, O> workflow, ChildOptions options) {
        this.exec = exec;
        this.ctx = ctx;
        this.id = id;
        this.name = name;
        this.workflow = workflow;
        this.options = options;
    }

    O run(I input) {
        Begun begun = begin(input);
        return begun.ended ? replay() : await(ctx, begun.childRunId);
    }

    /** Where {@link #begin} left the child: its run id, and whether the history holds its end already. */
    record Begun(String childRunId, boolean ended) {}

    /**
     * Finds the child in the history, or starts it and records that: the part of the primitive that must happen at
     * its place in the code.
     */
    Begun begin(I input) {
        History.Recorded recorded = exec.history.get(id);
        ChildWorkflowStarted started = recorded == null ? null : recorded.first(ChildWorkflowStarted.class);
        if (started != null && !started.workflow().equals(workflow.name())) {
            throw exec.nondeterministic("child '" + id + "' is a run of workflow '" + started.workflow()
                    + "' in the history, but the code now starts workflow '" + workflow.name() + "'");
        }
        String childRunId = started != null
                ? started.childRunId()
                : options.id() != null ? options.id() : ChildRuns.derivedId(exec.runId, id);
        if (recorded != null
                && (recorded.has(ChildWorkflowCompleted.class)
                        || recorded.has(ChildWorkflowFailed.class)
                        || recorded.has(ChildWorkflowCanceled.class))) {
            return new Begun(childRunId, true);
        }
        if (started == null) {
            checkRegistered();
            checkOwnId(childRunId);
            ctx.live();
            boolean withRecord = start(childRunId, input);
            ParentClosePolicy policy = options.parentClosePolicy();
            exec.children.opened(childRunId, policy);
            exec.children.activity();
            ctx.record(seq -> new ChildWorkflowStarted(
                    exec.runId, seq, exec.now(), id, name, childRunId, workflow.name(), policy.name()));
            if (withRecord && exec.engine.replay != null) {
                exec.flush(); // where a replay would write, it stops
            }
            // otherwise the child is created by the append that records its start, made when the turn's threads next
            // all wait (TurnThreads) if nothing else makes it sooner: the children that branches start side by side
            // are created together, by one append
        }
        return new Begun(childRunId, false);
    }

    /**
     * Each child call of a run needs a child of its own: a second call given the id of the first's child would wait
     * for an end that only the first hears, for ever. The history holds the children of earlier turns; this turn's
     * starts, side by side in branches too, are claimed as they happen.
     */
    private void checkOwnId(String childRunId) {
        String holder = null;
        for (History.Recorded r : exec.history.children()) {
            ChildWorkflowStarted s = r.first(ChildWorkflowStarted.class);
            if (s != null && s.childRunId().equals(childRunId) && !r.id.equals(id)) {
                holder = r.id;
                break;
            }
        }
        if (holder == null) {
            holder = exec.children.claim(childRunId, id);
        }
        if (holder != null) {
            throw new WorldflowException("child '" + id + "' of run '" + exec.runId + "' cannot start: run id '"
                    + childRunId + "' is the child that '" + holder + "' of this run started; give each child call"
                    + " an id of its own, or none (the id derived from the call's place is unique)");
        }
    }

    /**
     * A child of a workflow this process does not register, on a queue its worker serves, would only be held once
     * leased here: the code that starts it has the workflow's definition but not its registration, a mistake of the
     * deployment that the call reports at once, before anything is written. On a queue that other workers serve, the
     * workflow may be theirs.
     */
    private void checkRegistered() {
        if (exec.engine.replay != null) {
            return; // a replay starts nothing: where the code starts a child, it stops
        }
        String queue = options.queue() != null ? options.queue() : exec.info.queue();
        WorkerLoop worker = exec.engine.worker;
        if (exec.engine.registry.find(workflow.name()).isEmpty() && (worker == null || worker.serves(queue))) {
            throw new WorldflowException("child '" + id + "' of run '" + exec.runId + "' cannot start: workflow '"
                    + workflow.name() + "' is not registered with this Worldflow, and the child's queue '" + queue
                    + "' is one its worker serves; register the workflow, or start the child on a queue whose"
                    + " workers run it");
        }
    }

    /** The recorded end of a child whose end the history holds: its result, or its failure thrown. */
    O replay() {
        History.Recorded recorded = exec.history.get(id);
        String childRunId = recorded.first(ChildWorkflowStarted.class).childRunId();
        ChildWorkflowCompleted completed = recorded.first(ChildWorkflowCompleted.class);
        if (completed != null) {
            return ctx.decodeRecorded(completed.result(), "result of child '" + id + "'");
        }
        ChildWorkflowFailed failed = recorded.first(ChildWorkflowFailed.class);
        if (failed != null) {
            throw new ChildWorkflowFailedException(childRunId, workflow.name(), failed.error(), false);
        }
        throw canceled(childRunId);
    }

    /** Waits for the started child's end, holding no thread once the run's threads all wait, and records it. */
    O await(RunContext waiter, String childRunId) {
        return exec.threads.lookingForSignal(() -> look(waiter, childRunId));
    }

    private O look(RunContext waiter, String childRunId) {
        String signal = ChildRuns.signalName(childRunId);
        while (true) {
            long generation = exec.threads.pokeCount();
            Optional<PendingSignal> end = exec.claimSignal(signal, generation);
            if (end.isPresent() && waiter.cancel.isCanceled()) {
                exec.runLog.unclaimSignal(end.get());
                throw waiter.cancel.exception(exec.runId);
            }
            if (end.isPresent()) {
                exec.children.closed(childRunId);
                exec.children.activity();
                return ended(waiter, childRunId, end.get().payload());
            }
            exec.threads.awaitChild(generation, waiter.cancel);
            waiter.live();
        }
    }

    /** Asks the child, which lost a race, to cancel when its policy says so; it no longer holds this run's end. */
    void abandon(String childRunId) {
        exec.children.closed(childRunId);
        // with the append that records the race's loss, as a parent's end asks its children
        ChildRuns.closing(childRunId, options.parentClosePolicy(), "it lost a race in run '" + exec.runId + "'")
                .ifPresent(exec.runLog::cancel);
    }

    /**
     * Creates the child run. A child of a derived id is created by the append that records its start, in one
     * transaction, so that it exists exactly when its start is recorded: no other run can hold that id. A child of an
     * id the code gives is created at once, and one that exists already must be this run's child of the same
     * workflow.
     *
     * @return whether the child is created with the next append
     */
    private boolean start(String childRunId, I input) {
        if (input != null && !workflow.inputType().isInstance(input)) {
            throw new IllegalArgumentException("workflow '" + workflow.name() + "' takes "
                    + workflow.inputType().getName() + ", not "
                    + input.getClass().getName());
        }
        String what = "input of child '" + id + "' of run '" + exec.runId + "'";
        Payload payload = exec.engine.codec.encode(input, what);
        Instant now = exec.now();
        NewRun run = new NewRun(
                        childRunId,
                        workflow.name(),
                        payload,
                        now,
                        now,
                        options.timeout() == null ? null : now.plus(options.timeout()),
                        options.queue() != null ? options.queue() : exec.info.queue(),
                        options.priority() != null ? options.priority() : exec.info.priority(),
                        exec.runId)
                .withSearchAttributes(options.searchAttributes());
        // the child's trace continues this turn's: the code that starts it runs with the turn's span current
        Telemetry.Start start = exec.engine.telemetry.traced(run);
        run = start.run();
        if (options.id() == null) {
            exec.runLog.start(run);
            start.created(true);
            exec.engine.telemetry.created(run);
            return true;
        }
        WorkerLoop worker = exec.engine.worker;
        // beside a worker that runs the child's workflow, its first turn is leased there in the same write
        CreateResult created = null;
        try {
            created = worker != null
                    ? worker.create(run)
                    : exec.engine.world.eventLog().create(run);
        } finally {
            start.created(created != null && created.created());
        }
        if (created.created()) {
            exec.engine.telemetry.created(run);
            return false;
        }
        if (!created.run().workflow().equals(workflow.name())) {
            throw new WorldflowException("child '" + id + "' of run '" + exec.runId + "' cannot start: run id '"
                    + childRunId + "' belongs to a run of workflow '"
                    + created.run().workflow()
                    + "', not of workflow '" + workflow.name() + "'");
        }
        String parent = created.run().parent();
        if (!exec.runId.equals(parent)) {
            throw new WorldflowException("child '" + id + "' of run '" + exec.runId + "' cannot start: run id '"
                    + childRunId + "' belongs to a run of workflow '" + workflow.name() + "' that is "
                    + (parent == null ? "no run's child" : "a child of run '" + parent + "'"));
        }
        return false;
    }

    private O ended(RunContext waiter, String childRunId, Payload signal) {
        ChildRuns.Outcome outcome = exec.engine.codec.decode(
                signal, ChildRuns.Outcome.class, "end of child '" + id + "' of run '" + exec.runId + "'");
        if (exec.telemetry.on()) {
            exec.telemetry.childEnded(
                    exec.runId,
                    workflow.name(),
                    childRunId,
                    exec.recordedAt(id, ChildWorkflowStarted.class),
                    exec.now(),
                    RunStatus.valueOf(outcome.status()));
        }
        return switch (RunStatus.valueOf(outcome.status())) {
            case COMPLETED -> {
                waiter.record(seq ->
                        new ChildWorkflowCompleted(exec.runId, seq, exec.now(), id, childRunId, outcome.output()));
                yield waiter.decodeRecorded(outcome.output(), "result of child '" + id + "'");
            }
            case CANCELED -> {
                waiter.record(seq -> new ChildWorkflowCanceled(exec.runId, seq, exec.now(), id, childRunId));
                throw canceled(childRunId);
            }
            default -> {
                waiter.record(
                        seq -> new ChildWorkflowFailed(exec.runId, seq, exec.now(), id, childRunId, outcome.error()));
                throw new ChildWorkflowFailedException(childRunId, workflow.name(), outcome.error(), false);
            }
        };
    }

    private ChildWorkflowFailedException canceled(String childRunId) {
        return new ChildWorkflowFailedException(
                childRunId,
                workflow.name(),
                ErrorInfo.of(WorkflowCanceledException.class.getName(), "child run was canceled"),
                true);
    }
}
