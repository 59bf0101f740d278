package io.worldflow.runtime;

import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.runtime.internal.QueueRunner;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The world's queues with limits: global and per-worker concurrency, a rate limit, and how many runs of one key run at
 * once. Limits are stored in the world, so every worker applies the same; a worker serving the queue admits its waiting
 * runs. Runs with a {@link io.worldflow.StartOptions#key() key} keep their order in any queue, declared or not.
 */
public final class Queues {

    /** Whether a run may start only in a queue declared here or by another process (default false). */
    public static final String DECLARED_ONLY = "worldflow.queues.declared-only";

    private final QueueRunner runner;
    private final Supplier<String> actor;

    Queues(QueueRunner runner, Supplier<String> actor) {
        this.runner = runner;
        this.actor = actor;
    }

    /**
     * Stores the queue's limits (creating it, or changing the limits of one that exists); they apply at once here. The
     * queue keeps who set them ({@link Worldflow#actor()}) and when: {@link QueueInfo#changedBy()}. Limits equal to
     * the stored ones change nothing, so an application that declares its queues at each start keeps who set them.
     */
    public QueueSpec define(QueueSpec spec) {
        return runner.define(Objects.requireNonNull(spec, "spec"), actor.get());
    }

    /** The queue's limits and where it stands: how many runs wait, run, and are held back by the limits alone. */
    public Optional<QueueInfo> describe(String name) {
        return runner.describe(Objects.requireNonNull(name, "name"));
    }

    /** Every stored queue, described, in name order. */
    public List<QueueInfo> list() {
        List<QueueInfo> infos = new ArrayList<>();
        for (QueueSpec spec : runner.list()) {
            runner.describe(spec.name()).ifPresent(infos::add);
        }
        return infos;
    }
}
