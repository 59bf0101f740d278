package io.worldflow.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.worldflow.Actors;
import io.worldflow.Payload;
import io.worldflow.QueueSpec;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.format.ChainKey;
import io.worldflow.runtime.internal.DeclaredSignals;
import io.worldflow.runtime.internal.Handle;
import io.worldflow.runtime.internal.QueueRunner;
import io.worldflow.runtime.internal.Registry;
import io.worldflow.runtime.internal.RetryPlan;
import io.worldflow.runtime.internal.RunCompletions;
import io.worldflow.runtime.internal.RunStarts;
import io.worldflow.runtime.internal.ScheduleRunner;
import io.worldflow.runtime.internal.SignalUrls;
import io.worldflow.runtime.internal.Successors;
import io.worldflow.runtime.internal.UnknownKeys;
import io.worldflow.runtime.internal.WorkerLoop;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;

import java.net.URI;
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
import java.util.Set;

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

    /** The root URL of the server that mounts the {@link SignalEndpoint}, used by {@link #signalUrl}. */
    public static final String SIGNAL_URL = "worldflow.signal.url";
    /** The secret signal URLs are signed with: at least 32 bytes. */
    public static final String SIGNAL_SECRET = "worldflow.signal.secret";
    /** Secrets that signed signal URLs before {@value #SIGNAL_SECRET} did, separated by commas: they still verify. */
    public static final String SIGNAL_PREVIOUS_SECRETS = "worldflow.signal.previous-secrets";
    /** The largest signal body the {@link SignalEndpoint} takes, in bytes (default 65536). */
    public static final String SIGNAL_MAX_BODY = "worldflow.signal.max-body";

    private final World world;
    private final WorldConfig config;
    private final JsonCodec codec;
    private final InstantSource clock;
    private final Registry registry;
    private final RunCompletions completions;
    private final Object workerLock = new Object();
    private final WorkerHost host;
    private final Schedules schedules;
    private final QueueRunner queueRunner;
    private final Queues queues;
    private final RunStarts starts;
    private volatile boolean closed;
    private final SignalUrls signalUrls;
    private final int signalMaxBody;
    private final Audit audit;
    /** Who this process's client calls are recorded as, and who a thread acts as for a while ({@link #actingAs}). */
    private final String actor;

    private final ThreadLocal<String> acting = new ThreadLocal<>();
    /** What runs each step attempt's code in this process's worker. */
    private final StepInterceptor steps;
    /** Where this instance's spans and meters go. */
    private final Telemetry telemetry;

    private Worldflow(
            World world,
            WorldConfig config,
            JsonCodec codec,
            InstantSource clock,
            Registry registry,
            String actor,
            StepInterceptor steps,
            Telemetry telemetry) {
        this.world = world;
        this.telemetry = telemetry;
        this.steps = steps;
        this.actor = actor;
        this.config = config;
        this.codec = codec;
        this.clock = clock;
        this.registry = registry;
        this.completions = new RunCompletions(world.runQueries());
        this.signalUrls = new SignalUrls(config, SIGNAL_URL, SIGNAL_SECRET, SIGNAL_PREVIOUS_SECRETS);
        // read now, so that a bad value stops the build rather than every signal later
        this.signalMaxBody = config.getInt(SIGNAL_MAX_BODY, SignalEndpoint.DEFAULT_MAX_BODY_BYTES, 1, 16 << 20);
        this.audit = new Audit(world, ChainKey.fromConfig(config).orElse(null));
        this.queueRunner = new QueueRunner(world, clock, config.getBoolean(Queues.DECLARED_ONLY, false));
        this.queues = new Queues(queueRunner, this::actor);
        this.starts = new RunStarts(world, codec, clock, queueRunner, this::worker, telemetry);
        this.schedules = new Schedules(
                new ScheduleRunner(
                        world.schedules(),
                        world.runQueries(),
                        codec,
                        clock,
                        starts::scheduled,
                        starts::scheduledAll,
                        this::cancelScheduled,
                        this::actor),
                registry);
        this.host =
                new WorkerHost(world, codec, clock, registry, completions, queueRunner, schedules, steps, telemetry);
    }

    private WorkerLoop worker() {
        return host == null ? null : host.worker();
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

    /** The registry this instance records its meters into ({@link Builder#meterRegistry}), if one was given. */
    public Optional<MeterRegistry> meterRegistry() {
        return Optional.ofNullable(telemetry.registry());
    }

    // ---------------------------------------------------------------- worker

    /** Starts a worker with the options from configuration. */
    public void startWorker() {
        startWorker(WorkerOptions.fromConfig(config));
    }

    /**
     * Starts a worker in this process, and with it the deletion of old finished runs when the options ask for it
     * ({@link WorkerOptions#retention}). One per instance.
     */
    public void startWorker(WorkerOptions options) {
        Objects.requireNonNull(options, "options");
        synchronized (workerLock) {
            ensureOpen();
            host.start(options, this::close);
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
            throw new IllegalArgumentException("workflow '" + workflow.name() + "' takes "
                    + workflow.inputType().getName() + ", not "
                    + input.getClass().getName());
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
            throw new io.worldflow.SerializationException(
                    "input of workflow '" + workflowName + "' cannot be read as "
                            + workflow.inputType().getName() + ": " + e.getMessage(),
                    e);
        }
        String runId = create(workflowName, typed, options);
        return new Handle<>(world, codec, completions, runId, workflowName, workflow.outputType());
    }

    /**
     * Starts a run of a workflow by name, registered here or not: a worker that registers it runs it. The
     * input is stored as given (a map or JSON-like value), and converted to the workflow's input type when
     * the run starts. Used by tools, such as the dashboard, that start runs of workflows they do not contain.
     *
     * @return the run's id (an existing run's when {@code options} name an id that exists)
     * @throws IllegalArgumentException            when the name is blank, longer than 200 characters, or has
     *                                             control characters
     * @throws io.worldflow.SerializationException when the input cannot be serialized (nothing is written)
     */
    public String submit(String workflowName, Object input, StartOptions options) {
        Objects.requireNonNull(options, "options");
        if (workflowName == null
                || workflowName.isBlank()
                || workflowName.length() > 200
                || workflowName.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("a workflow name must be 1..200 characters without control characters");
        }
        if (registry.find(workflowName).isPresent()) {
            return start(workflowName, input, options).id();
        }
        return create(workflowName, input, options);
    }

    private String create(String workflowName, Object input, StartOptions options) {
        ensureOpen();
        return starts.start(workflowName, input, options, actor());
    }

    // ---------------------------------------------------------------- who acts

    /**
     * Records this thread's client calls (starts, signals, cancellations, terminations, retries) as made by
     * {@code who} until the returned scope is closed: for a server that acts for its own users. Outside such a scope
     * they are recorded as made by the application ({@link Builder#actor}).
     *
     * <pre>{@code
     * try (var as = wf.actingAs("user:" + user.id())) {
     *     wf.signal(runId, "approval", decision);
     * }
     * }</pre>
     *
     * @throws IllegalArgumentException when {@code who} is blank or longer than {@link Actors#MAX_LENGTH}
     */
    public Acting actingAs(String who) {
        Actors.check(who);
        String before = acting.get();
        acting.set(who);
        return () -> {
            if (before == null) {
                acting.remove();
            } else {
                acting.set(before);
            }
        };
    }

    /** A scope of {@link #actingAs}; closing it restores whom the thread acted as before. */
    @FunctionalInterface
    public interface Acting extends AutoCloseable {
        @Override
        void close();
    }

    /** Who this thread's client calls are recorded as now. */
    public String actor() {
        String who = acting.get();
        return who != null ? who : actor;
    }

    // ---------------------------------------------------------------- schedules

    /** The world's schedules: create, change, pause, trigger, backfill and read them. */
    public Schedules schedules() {
        return schedules;
    }

    /** The world's queues with limits: define them, and see how many runs wait and run. */
    public Queues queues() {
        return queues;
    }

    /** Checks of the audit trail: each run's hash-chained log verified, or exported with its chain. */
    public Audit audit() {
        return audit;
    }

    /** The overlap policy's cancel of a previous run; one that has ended or gone meanwhile is left alone. */
    private void cancelScheduled(String runId, String reason, boolean terminate) {
        try {
            requestCancel(runId, reason, terminate);
        } catch (RunNotFoundException | io.worldflow.RunFinishedException e) {
            // it ended first: nothing to cancel
        }
    }

    /**
     * A replayer of the workflows registered here, with this instance's codec: whether a run's history still matches
     * the code this process runs ({@link WorkflowReplayer}).
     */
    public WorkflowReplayer replayer() {
        return WorkflowReplayer.of(registry, codec);
    }

    /** The names of the workflows registered here. */
    public Set<String> workflowNames() {
        return registry.names();
    }

    /** The workflow registered here under {@code name}, with its options (such as its declared signal types). */
    public Optional<Workflow<?, ?>> workflow(String name) {
        return registry.find(name).map(w -> w);
    }

    /** A handle on an existing run; its result is decoded as {@code resultType}. */
    public <O> RunHandle<O> handle(String runId, Class<O> resultType) {
        checkRunId(runId);
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
     * @throws io.worldflow.SerializationException when the payload cannot be serialized, or does not read as the
     *                                             type the run's workflow declares for the signal
     *                                             ({@link io.worldflow.WorkflowOptions#signalTypes()})
     */
    public void signal(String runId, String name, Object payload) {
        signal(runId, name, payload, null);
    }

    /**
     * Sends a signal at most once per run and {@code key}: sending again with a key the run has already
     * taken stores nothing.
     *
     * @param key an idempotency key (1..200 characters), or null for none
     * @return true when the signal was stored, false when the key had been used
     * @throws RunNotFoundException              when the run does not exist
     * @throws io.worldflow.RunFinishedException when the run has finished
     * @throws io.worldflow.SerializationException as {@link #signal(String, String, Object)}
     */
    public boolean signal(String runId, String name, Object payload, String key) {
        checkRunId(runId);
        checkSignalName(name);
        ensureOpen();
        Object typed = DeclaredSignals.read(registry, world, codec, runId, name, payload);
        Payload body = codec.encode(typed, "signal '" + name + "' for run '" + runId + "'");
        String who = actor();
        // a run that continued as new hands what is sent to it on to its successor
        return Successors.onNewest(
                world,
                runId,
                id -> !world.signals().send(id, name, body, key, who).duplicate());
    }

    /** A run id as a run can have it: else an argument error, rather than a run that is not found. */
    private static void checkRunId(String runId) {
        Objects.requireNonNull(runId, "runId");
        if (runId.isBlank() || runId.length() > StartOptions.MAX_ID_LENGTH) {
            throw new IllegalArgumentException("a run id is 1.." + StartOptions.MAX_ID_LENGTH
                    + " characters, not blank, was '" + (runId.length() > 50 ? runId.substring(0, 50) + "…" : runId)
                    + "'");
        }
    }

    private static void checkSignalName(String name) {
        if (name == null || name.isBlank() || name.length() > 100) {
            throw new IllegalArgumentException("signal name must be 1..100 non-blank characters");
        }
        if (name.startsWith("@")) {
            throw new IllegalArgumentException(
                    "signal names starting with '@' are Worldflow's own (a child run's end), was '" + name + "'");
        }
    }

    /**
     * A URL that delivers signal {@code name} to the run when a JSON body is {@code POST}ed to it, until
     * {@code ttl} has passed, as many times as it is used. Needs {@value #SIGNAL_URL} (the root of the
     * server that mounts {@link #signalEndpoint()}, such as the dashboard) and {@value #SIGNAL_SECRET}.
     *
     * @throws RunNotFoundException              when the run does not exist
     * @throws io.worldflow.RunFinishedException when the run has finished
     * @throws io.worldflow.ConfigurationException when either key is missing or invalid
     */
    public URI signalUrl(String runId, String name, Duration ttl) {
        return signalUrl(runId, name, ttl, false);
    }

    /** As {@link #signalUrl(String, String, Duration)}; a {@code singleUse} URL delivers one signal only. */
    public URI signalUrl(String runId, String name, Duration ttl, boolean singleUse) {
        return signalUrl(signalUrls.configuredRoot(), runId, name, ttl, singleUse);
    }

    /**
     * A signal URL under {@code root}, the address of a server that mounts {@link #signalEndpoint()} at
     * {@link SignalEndpoint#PATH} (for a server that knows its own address).
     */
    public URI signalUrl(URI root, String runId, String name, Duration ttl, boolean singleUse) {
        Objects.requireNonNull(root, "root");
        checkRunId(runId);
        checkSignalName(name);
        Objects.requireNonNull(ttl, "ttl");
        SignalUrls.checkTtl(ttl);
        signalUrls.tokens(); // a missing secret is reported before anything is read
        RunInfo info = run(runId).orElseThrow(() -> new RunNotFoundException(runId));
        // a run that continued as new takes signals for the newest run of its chain
        RunInfo newest = Successors.newest(world, info);
        if (newest.isTerminal()) {
            throw new io.worldflow.RunFinishedException(newest.runId(), newest.status(), "make a signal URL");
        }
        return signalUrls.make(root, runId, name, clock.instant().plus(ttl), singleUse, actor());
    }

    /**
     * Revokes a signal URL before it expires: from when this returns, every process of the world answers it with
     * {@code 410 revoked_token} and delivers nothing. The revocation is kept with the run (who revoked it and when,
     * {@link io.worldflow.spi.Signals#revokedUrls}); revoking one twice keeps the first.
     *
     * @return the id of the URL's token, as the run's log names a URL that was used ({@code signal-url:<id>})
     * @throws IllegalArgumentException when {@code url} is not a signal URL signed with this application's secrets
     * @throws RunNotFoundException     when its run does not exist
     */
    public String revokeSignalUrl(URI url) {
        return signalUrls.revoke(world.signals(), url, actor());
    }

    /** The handler for signal URLs, for a web server to mount at {@link SignalEndpoint#PATH}. */
    public SignalEndpoint signalEndpoint() {
        return new SignalEndpoint(this, signalUrls.tokens(), clock, signalMaxBody);
    }

    /**
     * Runs a {@code FAILED} run again from where it failed: the step whose failure ended it runs again with
     * a fresh retry budget, and everything recorded before keeps its outcome. When the workflow code itself
     * failed, the run is replayed and its code runs on from the last recorded primitive (useful after a fix
     * is deployed). Recorded as {@code WorkflowRetried}.
     *
     * @throws RunNotFoundException            when the run does not exist
     * @throws io.worldflow.RunStateException  when the run is not {@code FAILED}, its deadline has passed, or
     *                                         the workflow handled the failure and went on (see the message)
     */
    public void retry(String runId, String reason) {
        checkRunId(runId);
        if (reason != null && reason.length() > 1000) {
            throw new IllegalArgumentException("a retry reason is at most 1000 characters");
        }
        ensureOpen();
        // a chain that continued as new is retried in its newest run, the one that failed
        RunInfo info = Successors.newest(world, run(runId).orElseThrow(() -> new RunNotFoundException(runId)));
        String failed = info.runId();
        if (info.status() != RunStatus.FAILED) {
            throw io.worldflow.RunStateException.notFailed(failed, info.status());
        }
        Instant now = clock.instant();
        if (info.deadline() != null && !now.isBefore(info.deadline())) {
            throw new io.worldflow.RunStateException(
                    "cannot retry run '" + failed + "': its deadline passed at " + info.deadline());
        }
        List<Event> log = events(failed);
        String stepId = RetryPlan.failedStep(failed, log);
        world.eventLog().reopen(new WorkflowRetried(failed, log.size(), now, stepId, reason, actor()));
    }

    /** Requests cancellation: the run ends CANCELED at its next primitive. */
    public void cancel(String runId) {
        cancel(runId, "requested by client");
    }

    /**
     * Requests cancellation with a reason, recorded in the run's {@code WorkflowCancelRequested} event. A run's
     * cancellation is requested once: a later request keeps the first one's reason. A run that continued as new is
     * canceled in the newest run of its chain, as {@link #terminate} and {@link #retry} act on it.
     *
     * @throws RunNotFoundException              when the run does not exist
     * @throws io.worldflow.RunFinishedException when it has finished
     */
    public void cancel(String runId, String reason) {
        requestCancel(runId, reason, false);
    }

    /**
     * Terminates the run: it ends {@code CANCELED} without running any more of its code, no cleanup included. A turn
     * of it in memory in this process stops at once and its running steps are interrupted (their results are never
     * recorded); one in another process stops at its next write; a run sleeping or waiting ends at its next turn,
     * which is due at once. Its children are closed as their parent-close policies say, and its parent is told it was
     * canceled. The reason is recorded in its {@code WorkflowCancelRequested} event, and {@link RunInfo#cancelRequest()}
     * says it was a termination; after an earlier {@link #cancel}, the request keeps that cancel's reason and becomes
     * a termination.
     *
     * @throws RunNotFoundException              when the run does not exist
     * @throws io.worldflow.RunFinishedException when it has finished
     */
    public void terminate(String runId, String reason) {
        requestCancel(runId, reason, true);
    }

    private void requestCancel(String runId, String reason, boolean terminate) {
        checkRunId(runId);
        if (reason != null && reason.length() > 1000) {
            throw new IllegalArgumentException(
                    "a " + (terminate ? "termination" : "cancellation") + " reason is at most 1000 characters");
        }
        ensureOpen();
        String who = actor();
        String target = Successors.onNewest(world, runId, id -> {
            world.eventLog().requestCancel(id, reason, terminate, who);
            return id;
        });
        WorkerLoop w = host.worker();
        if (w != null) {
            w.cancelRequested(target, terminate);
        }
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

    /**
     * Stops this process's worker gracefully, as {@link #close()} does, and leaves this Worldflow open: it still starts,
     * signals and reads runs, and {@link #startWorker} may run a worker again. Does nothing when no worker runs.
     */
    public void stopWorker() {
        synchronized (workerLock) {
            if (!closed) {
                host.stop();
            }
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
            host.stop();
            completions.close();
            world.close();
        }
    }

    /** Builds a {@link Worldflow}. */
    public static final class Builder {

        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<Workflow<?, ?>> workflows = new ArrayList<>();
        private final List<Object> annotated = new ArrayList<>();
        private final List<ScheduleSpec> declared = new ArrayList<>();
        private World world;
        private InstantSource clock = Clock.systemUTC();
        private JsonCodec codec;
        private final List<String> knownKeys =
                new ArrayList<>(List.of(SIGNAL_MAX_BODY, SIGNAL_PREVIOUS_SECRETS, Queues.DECLARED_ONLY));
        private final List<QueueSpec> declaredQueues = new ArrayList<>();
        private String actor = Actors.APPLICATION;
        private static final StepInterceptor NONE = StepInterceptor.none();
        private StepInterceptor steps = NONE;
        private OpenTelemetry openTelemetry;
        private MeterRegistry meterRegistry;

        private Builder() {}

        /**
         * Wraps every step attempt this process's worker runs ({@link StepInterceptor}); given more than once, the
         * first given is the outermost.
         */
        public Builder interceptSteps(StepInterceptor interceptor) {
            Objects.requireNonNull(interceptor, "interceptor");
            StepInterceptor before = steps;
            steps = before == NONE ? interceptor : before.around(interceptor);
            return this;
        }

        /**
         * Traces runs into {@code value}'s tracer provider: a span for each run's start, its turns and, within them,
         * its step attempts, timers, signal waits and child runs. The trace of the code that starts a run is kept
         * with it, so the run's spans join it on whatever worker and however much later they happen. Without this,
         * nothing is traced.
         */
        public Builder openTelemetry(OpenTelemetry value) {
            this.openTelemetry = Objects.requireNonNull(value, "openTelemetry");
            return this;
        }

        /**
         * Records this instance's meters (runs, steps, turns, appends, leases, timers: see the README) into
         * {@code value}. Without this, nothing is measured.
         */
        public Builder meterRegistry(MeterRegistry value) {
            this.meterRegistry = Objects.requireNonNull(value, "meterRegistry");
            return this;
        }

        /**
         * The application's identity, which the log records as who made its client calls (starts, signals,
         * cancellations, retries) unless a thread acts as someone else ({@link Worldflow#actingAs}); by default
         * {@value Actors#APPLICATION}.
         *
         * @throws IllegalArgumentException when it is blank or longer than {@link Actors#MAX_LENGTH}
         */
        public Builder actor(String value) {
            this.actor = Actors.check(value);
            return this;
        }

        /**
         * Declares a configuration key the application or one of its modules reads: its {@code WORLDFLOW_*}
         * environment variable is found although the key has dashes, and {@link #build} does not warn of it as a key
         * nothing reads.
         */
        public Builder knownKey(String key) {
            knownKeys.add(Objects.requireNonNull(key, "key"));
            return this;
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
         * A schedule this application declares: {@link #build} creates it, or changes it to this spec when it differs,
         * so that every worker starting with the same declaration keeps one schedule (written once).
         */
        public Builder schedule(ScheduleSpec spec) {
            declared.add(Objects.requireNonNull(spec, "spec"));
            return this;
        }

        /** A declared schedule of a Quartz cron expression in UTC, with the defaults of {@link ScheduleSpec#cron}. */
        public <I> Builder schedule(String id, String cron, Workflow<I, ?> workflow, I input) {
            return schedule(ScheduleSpec.cron(id, cron, workflow, input));
        }

        /** A queue with limits this application declares: {@link #build} stores its limits. */
        public Builder queue(QueueSpec spec) {
            declaredQueues.add(Objects.requireNonNull(spec, "spec"));
            return this;
        }

        /**
         * Opens the world, registers the workflows and stores the declared queues and schedules.
         *
         * @throws io.worldflow.ConfigurationException when configuration is invalid or names an unknown world
         * @throws io.worldflow.WorldException         when the world cannot be opened
         */
        public Worldflow build() {
            Registry registry = new Registry();
            workflows.forEach(registry::register);
            annotated.forEach(registry::registerAnnotated);
            List<String> keys = new ArrayList<>(WorldLoader.knownKeys());
            keys.addAll(knownKeys);
            WorldConfig config = WorldflowConfig.load(properties, keys);
            UnknownKeys.warn(config, knownKeys);
            JsonCodec base = codec != null ? codec : new JsonCodec();
            JsonCodec c = PayloadKeys.fromConfig(config)
                    .map(k -> PayloadKeys.encryptsPayloads(config) ? base.encrypting(k) : base.sealingSecrets(k))
                    .orElse(base);
            World w = world != null ? world : WorldLoader.open(config, clock, c.eventCodec());
            Telemetry t = Telemetry.of(openTelemetry, meterRegistry, config.get("worldflow.world", "local"));
            Worldflow wf;
            try {
                wf = new Worldflow(w, config, c, clock, registry, actor, steps, t);
            } catch (RuntimeException e) {
                if (world == null) {
                    w.close(); // opened here for this engine, which a bad setting stopped
                }
                throw e;
            }
            try {
                declaredQueues.forEach(wf.queues()::define);
                declared.forEach(wf.schedules()::ensure);
                for (Registry.DeclaredSchedule d : registry.scheduled()) {
                    wf.schedules().ensure(Schedules.declared(d, c));
                }
            } catch (RuntimeException e) {
                wf.close();
                throw e;
            }
            return wf;
        }
    }
}
