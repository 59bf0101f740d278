package io.worldflow.runtime;

import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.runtime.internal.ClockScheduler;
import io.worldflow.runtime.internal.Committer;
import io.worldflow.runtime.internal.Engine;
import io.worldflow.runtime.internal.Handle;
import io.worldflow.runtime.internal.Registry;
import io.worldflow.runtime.internal.RunCompletions;
import io.worldflow.runtime.internal.WorkerLoop;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The entry point: a client for starting, signaling, canceling and reading runs, and optionally a
 * worker executing them, over the world chosen by configuration.
 *
 * <pre>{@code
 * try (Worldflow wf = Worldflow.builder().fromConfig().register(fulfil).build()) {
 *     wf.startWorker();
 *     RunHandle<Receipt> run = wf.start(fulfil, order, StartOptions.id("order-42"));
 *     Receipt r = run.result(Duration.ofMinutes(1));
 * }
 * }</pre>
 */
public final class Worldflow implements AutoCloseable {

    private final World world;
    private final WorldConfig config;
    private final JsonCodec codec;
    private final InstantSource clock;
    private final Registry registry;
    private final RunCompletions completions = new RunCompletions();
    private final Object workerLock = new Object();
    private WorkerLoop worker;
    private Committer committer;
    private ClockScheduler scheduler;
    private Thread shutdownHook;
    private volatile boolean closed;

    private Worldflow(World world, WorldConfig config, JsonCodec codec, InstantSource clock, Registry registry) {
        this.world = world;
        this.config = config;
        this.codec = codec;
        this.clock = clock;
        this.registry = registry;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The world runs live in. */
    public World world() {
        return world;
    }

    /** The resolved configuration. */
    public WorldConfig config() {
        return config;
    }

    public JsonCodec codec() {
        return codec;
    }

    public InstantSource clock() {
        return clock;
    }

    // ---------------------------------------------------------------- worker

    /** Starts a worker with the options from configuration. */
    public void startWorker() {
        startWorker(WorkerOptions.fromConfig(config));
    }

    /** Starts a worker in this process. One per instance. */
    public void startWorker(WorkerOptions options) {
        Objects.requireNonNull(options, "options");
        synchronized (workerLock) {
            ensureOpen();
            if (worker != null) {
                throw new IllegalStateException("this Worldflow already runs a worker");
            }
            scheduler = new ClockScheduler(clock);
            committer = new Committer(world.eventLog());
            Engine engine = new Engine(world, codec, clock, scheduler, committer, registry, completions,
                    options.stickyWait(), options.holdRetry());
            worker = new WorkerLoop(engine, new WorkerLoop.Settings(options.workerId(), options.concurrency(),
                    options.queues(), options.lease(), options.pollInterval(), options.shutdownGrace()));
            if (options.handleSigterm()) {
                shutdownHook = new Thread(this::close, "worldflow-shutdown");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
            }
        }
    }

    // ---------------------------------------------------------------- client

    public <I, O> RunHandle<O> start(Workflow<I, O> workflow, I input) {
        return start(workflow, input, StartOptions.defaults());
    }

    /**
     * Starts a run, or returns the existing run when {@code options} name an id that exists.
     *
     * @throws io.worldflow.SerializationException when the input cannot be serialized (nothing is written)
     * @throws WorldflowException                  when the id belongs to a run of another workflow
     */
    public <I, O> RunHandle<O> start(Workflow<I, O> workflow, I input, StartOptions options) {
        Objects.requireNonNull(workflow, "workflow");
        Objects.requireNonNull(options, "options");
        if (input != null && !workflow.inputType().isInstance(input)) {
            throw new IllegalArgumentException("workflow '" + workflow.name() + "' takes " + workflow.inputType().getName()
                    + ", not " + input.getClass().getName());
        }
        String runId = create(workflow.name(), input, options);
        return new Handle<>(world, codec, completions, runId, workflow.name(), workflow.outputType());
    }

    /**
     * Starts a registered workflow by name; {@code input} is converted to its input type (a map or
     * JSON-like value works).
     *
     * @throws io.worldflow.UnknownWorkflowException when no workflow of that name is registered
     */
    public RunHandle<Object> start(String workflowName, Object input, StartOptions options) {
        Workflow<Object, Object> workflow = registry.require(workflowName);
        Object typed;
        try {
            typed = input == null ? null : codec.payloadMapper().convertValue(input, workflow.inputType());
        } catch (IllegalArgumentException e) {
            throw new io.worldflow.SerializationException("input of workflow '" + workflowName + "' cannot be read as "
                    + workflow.inputType().getName() + ": " + e.getMessage(), e);
        }
        String runId = create(workflowName, typed, options);
        return new Handle<>(world, codec, completions, runId, workflowName, workflow.outputType());
    }

    private String create(String workflowName, Object input, StartOptions options) {
        ensureOpen();
        var payload = codec.encode(input, "input of workflow '" + workflowName + "'");
        Instant now = clock.instant();
        String runId = options.id() != null ? options.id() : UUID.randomUUID().toString();
        Instant availableAt = options.availableAt() != null ? options.availableAt()
                : options.delay() != null ? now.plus(options.delay()) : now;
        Instant deadline = options.deadline() != null ? options.deadline()
                : options.timeout() != null ? now.plus(options.timeout()) : null;
        CreateResult created = world.eventLog().create(new NewRun(runId, workflowName, payload, now, availableAt,
                deadline, options.queue(), options.priority()));
        if (!created.created() && !created.run().workflow().equals(workflowName)) {
            throw new WorldflowException("run id '" + runId + "' already belongs to a run of workflow '"
                    + created.run().workflow() + "', not '" + workflowName + "'");
        }
        return runId;
    }

    /** A handle on an existing run; its result is decoded as {@code resultType}. */
    public <O> RunHandle<O> handle(String runId, Class<O> resultType) {
        RunInfo info = run(runId).orElseThrow(() -> new RunNotFoundException(runId));
        return new Handle<>(world, codec, completions, runId, info.workflow(), resultType);
    }

    /** A handle on an existing run; its result is decoded as its recorded type. */
    public RunHandle<Object> handle(String runId) {
        return handle(runId, null);
    }

    /**
     * Sends a signal; it is kept until the run waits for it.
     *
     * @throws RunNotFoundException                when the run does not exist
     * @throws io.worldflow.RunFinishedException   when the run has finished
     * @throws io.worldflow.SerializationException when the payload cannot be serialized
     */
    public void signal(String runId, String name, Object payload) {
        Objects.requireNonNull(runId, "runId");
        if (name == null || name.isBlank() || name.length() > 100) {
            throw new IllegalArgumentException("signal name must be 1..100 non-blank characters");
        }
        ensureOpen();
        world.signals().send(runId, name, codec.encode(payload, "signal '" + name + "' for run '" + runId + "'"));
    }

    /** Requests cancellation: the run ends CANCELED at its next primitive. */
    public void cancel(String runId) {
        cancel(runId, "requested by client");
    }

    /**
     * Requests cancellation with a reason, recorded in the run's {@code WorkflowCancelRequested} event.
     *
     * @throws RunNotFoundException              when the run does not exist
     * @throws io.worldflow.RunFinishedException when it has finished
     */
    public void cancel(String runId, String reason) {
        Objects.requireNonNull(runId, "runId");
        if (reason != null && reason.length() > 1000) {
            throw new IllegalArgumentException("a cancellation reason is at most 1000 characters");
        }
        ensureOpen();
        world.eventLog().requestCancel(runId, reason);
    }

    /** The run's event timeline, in order: the audit log. */
    public List<Event> events(String runId) {
        return world.eventLog().read(runId, 0);
    }

    public Optional<RunInfo> run(String runId) {
        return world.runQueries().get(runId);
    }

    public RunPage runs(RunQuery query) {
        return world.runQueries().list(query);
    }

    public Map<RunStatus, Long> counts(RunQuery query) {
        return world.runQueries().countByStatus(query);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this Worldflow is closed");
        }
    }

    /** Stops the worker gracefully (if one runs), then closes the world. Idempotent. */
    @Override
    public void close() {
        synchronized (workerLock) {
            if (closed) {
                return;
            }
            closed = true;
            if (worker != null) {
                worker.close();
                committer.close();
                scheduler.close();
            }
            if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException ignored) {
                    // the JVM is already shutting down
                }
            }
            world.close();
        }
    }

    /** Builds a {@link Worldflow}. */
    public static final class Builder {

        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<Workflow<?, ?>> workflows = new ArrayList<>();
        private final List<Object> annotated = new ArrayList<>();
        private World world;
        private InstantSource clock = Clock.systemUTC();
        private JsonCodec codec;

        private Builder() {
        }

        /** Reads configuration from its sources (always done; kept for readability at the call site). */
        public Builder fromConfig() {
            return this;
        }

        /** A configuration value, overridden by the environment and system properties. */
        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder properties(Map<String, String> values) {
            values.forEach(this::property);
            return this;
        }

        /** Use this world instead of the configured one; it is closed with the Worldflow. */
        public Builder world(World value) {
            this.world = Objects.requireNonNull(value, "world");
            return this;
        }

        /** The clock for everything: a {@link ManualClock} in tests. */
        public Builder clock(InstantSource value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        public Builder codec(JsonCodec value) {
            this.codec = Objects.requireNonNull(value, "codec");
            return this;
        }

        public Builder register(Workflow<?, ?> workflow) {
            workflows.add(Objects.requireNonNull(workflow, "workflow"));
            return this;
        }

        /** Registers every {@link io.worldflow.annotation.WorkflowMethod} of {@code target}. */
        public Builder register(Object target) {
            if (target instanceof Workflow<?, ?> w) {
                return register(w);
            }
            annotated.add(Objects.requireNonNull(target, "target"));
            return this;
        }

        /**
         * @throws io.worldflow.ConfigurationException when configuration is invalid or names an unknown world
         * @throws io.worldflow.WorldException         when the world cannot be opened
         */
        public Worldflow build() {
            Registry registry = new Registry();
            workflows.forEach(registry::register);
            annotated.forEach(registry::registerAnnotated);
            WorldConfig config = WorldflowConfig.load(properties, WorldLoader.knownKeys());
            JsonCodec c = codec != null ? codec : new JsonCodec();
            World w = world != null ? world : WorldLoader.open(config, clock, c.eventCodec());
            return new Worldflow(w, config, c, clock, registry);
        }
    }
}
