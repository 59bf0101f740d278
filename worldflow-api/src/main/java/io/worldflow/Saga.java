package io.worldflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What undoes the steps a workflow has done, run newest first when it must give up: register a compensation after
 * each step that succeeds, and on failure call {@link #compensate}. Each compensation runs as a step of its own
 * ({@code compensate-<name>}, with the workflow's retry policy), so it is recorded, retried and never run twice;
 * one that still fails is reported beside the failure being compensated, never instead of it.
 *
 * <pre>{@code
 * Saga saga = new Saga(ctx);
 * try {
 *     Charge charge = ctx.step("charge", () -> payments.charge(order));
 *     saga.addCompensation("refund", () -> payments.refund(charge));
 *     ctx.step("ship", () -> carrier.ship(order));
 * } catch (StepFailedException e) {
 *     throw saga.compensate(e);
 * }
 * }</pre>
 */
public final class Saga {

    /** A compensation's name and what it does. */
    private record Compensation(String name, StepFunction<?> undo) {}

    private final WorkflowContext ctx;
    private final boolean parallel;
    private final List<Compensation> compensations = new ArrayList<>();

    /** Compensations run one after another, newest first. */
    public Saga(WorkflowContext ctx) {
        this(ctx, false);
    }

    /**
     * @param parallel whether the compensations run side by side (a {@code parallel} named {@code compensate}) rather
     *                 than one after another, newest first
     */
    public Saga(WorkflowContext ctx, boolean parallel) {
        this.ctx = Objects.requireNonNull(ctx, "ctx");
        this.parallel = parallel;
    }

    /**
     * Registers what undoes a step that has succeeded.
     *
     * @param name 1..89 characters, as a step's name (the step is {@code compensate-<name>})
     */
    public void addCompensation(String name, StepFunction<?> undo) {
        Objects.requireNonNull(undo, "undo");
        if (name == null || name.isBlank() || name.length() > 89) {
            throw new IllegalArgumentException("a compensation's name must be 1..89 characters, was '" + name + "'");
        }
        compensations.add(new Compensation(name, undo));
    }

    /**
     * Runs the compensations registered so far, newest first (or side by side), then forgets them; when {@code failure}
     * is a cancellation, in a {@linkplain WorkflowContext#detached detached} scope named {@code compensate}, which the
     * cancellation does not reach. A compensation whose retries are exhausted is added to {@code failure} as a suppressed exception, and the others still run.
     *
     * @return {@code failure}, for the caller to throw
     */
    public <E extends Throwable> E compensate(E failure) {
        Objects.requireNonNull(failure, "failure");
        if (failure instanceof CanceledException) {
            // the run's cancellation would stop the compensations at their first step: they run where it does not reach
            return ctx.detached(
                    "compensate", scope -> new Saga(scope, parallel, compensations).compensate(failure, scope));
        }
        return compensate(failure, ctx);
    }

    private Saga(WorkflowContext ctx, boolean parallel, List<Compensation> compensations) {
        this(ctx, parallel);
        this.compensations.addAll(compensations);
        compensations.clear();
    }

    private <E extends Throwable> E compensate(E failure, WorkflowContext ctx) {
        List<Compensation> newestFirst = new ArrayList<>(compensations.reversed());
        compensations.clear();
        List<StepFailedException> failed = parallel
                ? ctx.parallel("compensate", newestFirst, (branch, c) -> run(branch, c)).stream()
                        .filter(Objects::nonNull)
                        .toList()
                : newestFirst.stream()
                        .map(c -> run(ctx, c))
                        .filter(Objects::nonNull)
                        .toList();
        failed.forEach(failure::addSuppressed);
        return failure;
    }

    /** Runs one compensation as a step; its failure, or null. */
    private static StepFailedException run(WorkflowContext ctx, Compensation c) {
        try {
            ctx.step("compensate-" + c.name(), c.undo());
            return null;
        } catch (StepFailedException e) {
            return e;
        }
    }
}
