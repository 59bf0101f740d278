package io.worldflow.runtime.internal.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The meters of one Worldflow instance. Names and tags are stable (the README lists them): each workflow and queue gets
 * its meters once, on first use, and a turn holds them, so that recording is an increment, not a lookup.
 */
final class RunMeters {

    static final String RUNS_STARTED = "worldflow.runs.started";
    static final String RUNS_ENDED = "worldflow.runs.ended";
    static final String RUNS_HELD = "worldflow.runs.held";
    static final String RUNS_ACTIVE = "worldflow.runs.active";
    static final String STEP_ATTEMPTS = "worldflow.steps.attempts";
    static final String TURN_LAG = "worldflow.turns.lag";
    static final String TURN_DURATION = "worldflow.turns.duration";
    static final String APPEND_BATCH = "worldflow.appends.batch";
    static final String APPEND_COMMIT = "worldflow.appends.commit";
    static final String LEASES_RENEWED = "worldflow.leases.renewed";
    static final String LEASES_LOST = "worldflow.leases.lost";
    static final String TIMER_LATENESS = "worldflow.timers.lateness";

    /** The most workflow and queue pairs whose meters a worker registers when it starts. */
    private static final int MAX_SERVED = 256;

    private final MeterRegistry registry;
    private final String world;
    private final Tags worldTags;
    private final Map<String, Map<String, PerWorkflow>> byWorkflow = new ConcurrentHashMap<>();
    private final Map<String, Counter[]> leases = new ConcurrentHashMap<>();
    private final DistributionSummary batch;
    private final Timer commit;
    private final AtomicReference<Supplier<Number>> activeTurns = new AtomicReference<>();

    RunMeters(MeterRegistry registry, String world) {
        this.registry = registry;
        this.world = world;
        this.worldTags = Tags.of("world", world);
        this.batch = DistributionSummary.builder(APPEND_BATCH)
                .description("appends written in one commit")
                .baseUnit("appends")
                .tags(worldTags)
                .register(registry);
        this.commit = timer(registry, APPEND_COMMIT, "how long a commit of batched appends took", worldTags);
    }

    MeterRegistry registry() {
        return registry;
    }

    PerWorkflow of(String workflow, String queue) {
        return byWorkflow
                .computeIfAbsent(workflow, w -> new ConcurrentHashMap<>())
                .computeIfAbsent(
                        queue,
                        q -> new PerWorkflow(registry, Tags.of("world", world, "workflow", workflow, "queue", q)));
    }

    void committed(int appends, long nanos) {
        batch.record(appends);
        commit.record(nanos, TimeUnit.NANOSECONDS);
    }

    void lease(String queue, boolean kept) {
        leases(queue)[kept ? 0 : 1].increment();
    }

    private Counter[] leases(String queue) {
        return leases.computeIfAbsent(queue == null ? "" : queue, q -> {
            Tags tags = Tags.of("world", world, "queue", q);
            return new Counter[] {
                counter(registry, LEASES_RENEWED, "leases on turns extended", tags),
                counter(registry, LEASES_LOST, "leases on running turns found taken by another worker", tags)
            };
        });
    }

    /**
     * Registers the meters of each of {@code workflows} on each of {@code queues}, and each queue's lease counters, up to
     * {@value #MAX_SERVED} pairs (past that, the rest are registered on first use, as any meter is).
     */
    void serving(Collection<String> workflows, Collection<String> queues) {
        int pairs = 0;
        for (String queue : queues) {
            leases(queue);
            for (String workflow : workflows) {
                if (pairs++ == MAX_SERVED) {
                    return;
                }
                of(workflow, queue);
            }
        }
    }

    /**
     * Counts the turns of the worker started last: a registry keeps the first gauge of a name and tags, so the gauge
     * reads whichever worker runs now, and a worker stopped and started again is counted.
     */
    void activeTurns(Supplier<Number> count) {
        if (activeTurns.getAndSet(count) == null) {
            Gauge.builder(RUNS_ACTIVE, activeTurns, a -> a.get().get().doubleValue())
                    .description("turns running in this process's worker")
                    .tags(worldTags)
                    .strongReference(true)
                    .register(registry);
        }
    }

    /** The meters of one workflow on one queue. */
    static final class PerWorkflow {
        final Counter started;
        final Counter completed;
        final Counter failed;
        final Counter canceled;
        final Counter continued;
        final Counter held;
        final Timer stepSuccess;
        final Timer stepFailure;
        final Timer lag;
        final Timer turnFinished;
        final Timer turnSuspended;
        final Timer turnHeld;
        final Timer turnAborted;
        final Timer lateness;

        PerWorkflow(MeterRegistry registry, Tags tags) {
            started = counter(registry, RUNS_STARTED, "runs created by this process", tags);
            String ended = "runs ended by this process's worker";
            completed = counter(registry, RUNS_ENDED, ended, tags.and("outcome", "completed"));
            failed = counter(registry, RUNS_ENDED, ended, tags.and("outcome", "failed"));
            canceled = counter(registry, RUNS_ENDED, ended, tags.and("outcome", "canceled"));
            continued = counter(registry, RUNS_ENDED, ended, tags.and("outcome", "continued"));
            held = counter(
                    registry,
                    RUNS_HELD,
                    "runs held, counted as they become held: a history the code contradicts, a missing key",
                    tags);
            String attempts = "step attempts run, and how long each took";
            stepSuccess = timer(registry, STEP_ATTEMPTS, attempts, tags.and("outcome", "success"));
            stepFailure = timer(registry, STEP_ATTEMPTS, attempts, tags.and("outcome", "failure"));
            lag = timer(
                    registry, TURN_LAG, "how long after it was due a run's first turn began (schedule-to-start)", tags);
            String turns = "how long a turn ran";
            turnFinished = timer(registry, TURN_DURATION, turns, tags.and("outcome", "finished"));
            turnSuspended = timer(registry, TURN_DURATION, turns, tags.and("outcome", "suspended"));
            turnHeld = timer(registry, TURN_DURATION, turns, tags.and("outcome", "held"));
            turnAborted = timer(registry, TURN_DURATION, turns, tags.and("outcome", "aborted"));
            lateness = timer(registry, TIMER_LATENESS, "how long after its time a durable timer fired", tags);
        }
    }

    private static Counter counter(MeterRegistry registry, String name, String description, Tags tags) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }

    private static Timer timer(MeterRegistry registry, String name, String description, Tags tags) {
        return Timer.builder(name).description(description).tags(tags).register(registry);
    }
}
