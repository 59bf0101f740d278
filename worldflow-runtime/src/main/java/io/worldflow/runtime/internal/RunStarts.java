package io.worldflow.runtime.internal;

import io.worldflow.DuplicateRunException;
import io.worldflow.RunInfo;
import io.worldflow.RunStateException;
import io.worldflow.StartOptions;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How runs are created for a client and for schedules: the run's id and times from its options, its deduplication id
 * taken, its place in a queue with limits (waiting to be admitted, or not), and the create itself, through this
 * process's worker when it has one (the run's first turn then begins here) or the world.
 */
public final class RunStarts {

    private final World world;
    private final JsonCodec codec;
    private final InstantSource clock;
    private final QueueRunner queues;
    private final Supplier<WorkerLoop> worker;
    private final Telemetry telemetry;

    /** @param worker this process's worker, or null while it has none */
    public RunStarts(
            World world,
            JsonCodec codec,
            InstantSource clock,
            QueueRunner queues,
            Supplier<WorkerLoop> worker,
            Telemetry telemetry) {
        this.world = world;
        this.telemetry = telemetry;
        this.codec = codec;
        this.clock = clock;
        this.queues = queues;
        this.worker = worker;
    }

    /**
     * Creates a run of {@code workflowName} as {@code options} say, started by {@code actor}.
     *
     * @return the run's id: a new run's, an existing one's of the same id, or the active one's of the same deduplication
     *     id when the options ask for it
     * @throws DuplicateRunException when an active run holds the deduplication id and the options refuse a second
     * @throws RunStateException     when the id, or the deduplication id, belongs to a run of another workflow
     */
    public String start(String workflowName, Object input, StartOptions options, String actor) {
        var payload = codec.encode(input, "input of workflow '" + workflowName + "'");
        Instant now = clock.instant();
        String runId = options.id() != null ? options.id() : RunIds.next(now.toEpochMilli());
        Instant availableAt = options.availableAt() != null
                ? options.availableAt()
                : options.delay() != null ? now.plus(options.delay()) : now;
        Instant deadline = options.deadline() != null
                ? options.deadline()
                : options.timeout() != null ? now.plus(options.timeout()) : null;
        if (options.dedupId() != null) {
            Optional<String> holder = queues.claim(options.queue(), options.dedupId(), runId);
            if (holder.isPresent()) {
                if (!options.returnExisting()) {
                    throw new DuplicateRunException(options.queue(), options.dedupId(), holder.get());
                }
                return sameWorkflow(holder.get(), workflowName);
            }
        }
        CreateResult created = create(
                new NewRun(
                                runId,
                                workflowName,
                                payload,
                                now,
                                availableAt,
                                deadline,
                                options.queue(),
                                options.priority())
                        .withActor(actor)
                        .withSearchAttributes(options.searchAttributes()),
                options.key());
        if (!created.created() && !created.run().workflow().equals(workflowName)) {
            throw new RunStateException("run id '" + runId + "' already belongs to a run of workflow '"
                    + created.run().workflow() + "', not '" + workflowName + "'");
        }
        return runId;
    }

    /** A run a schedule starts, waiting in its queue when the queue's limits say so. */
    public CreateResult scheduled(NewRun run) {
        return create(run, null);
    }

    /** Runs of many schedules' fires, created together, each waiting in its queue when the queue's limits say so. */
    public void scheduledAll(List<NewRun> runs) {
        List<NewRun> placed = new ArrayList<>(runs.size());
        List<Telemetry.Start> starts = new ArrayList<>(runs.size());
        for (NewRun run : runs) {
            Telemetry.Start start = telemetry.traced(run);
            starts.add(start);
            placed.add(queues.place(start.run(), null));
        }
        try {
            world.eventLog().createAll(placed);
        } finally {
            starts.forEach(s -> s.created(true));
        }
        placed.forEach(telemetry::created);
        placed.stream().filter(NewRun::waits).findAny().ifPresent(queues::created);
    }

    private CreateResult create(NewRun run, String key) {
        Telemetry.Start start = telemetry.traced(run);
        boolean made = false;
        try {
            NewRun placed = queues.place(start.run(), key);
            WorkerLoop here = worker.get();
            CreateResult created =
                    here != null ? here.create(placed) : world.eventLog().create(placed);
            made = created.created();
            if (made) {
                queues.created(placed);
                telemetry.created(placed);
            }
            return created;
        } finally {
            start.created(made);
        }
    }

    /** The run that holds a deduplication id, when it is a run of the workflow asked for. */
    private String sameWorkflow(String runId, String workflowName) {
        String workflow = world.runQueries().get(runId).map(RunInfo::workflow).orElse(workflowName);
        if (!workflow.equals(workflowName)) {
            throw new RunStateException("the deduplication id belongs to run '" + runId + "' of workflow '" + workflow
                    + "', not '" + workflowName + "'");
        }
        return runId;
    }
}
