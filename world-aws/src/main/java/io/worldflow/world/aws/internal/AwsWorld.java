package io.worldflow.world.aws.internal;

import io.worldflow.format.ChainKey;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PlainWorkerAccess;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** The AWS world: DynamoDB for runs, logs, turns, signals, schedules and queues; SQS for wake-ups. */
public final class AwsWorld implements World {

    private static final Logger log = LoggerFactory.getLogger(AwsWorld.class);

    private final AwsSettings settings;
    private final Clients clients;
    private final DueNotifier notifier;
    private final WakeQueues wakes;
    private final WakeConsumer consumer;
    private final DynamoEventLog eventLog;
    private final DynamoTaskQueue taskQueue;
    private final DynamoSignals signals;
    private final DynamoRunQueries queries;
    private final DynamoSchedules schedules;
    private final DynamoQueues queues;
    private final LeasedLoads loads;
    private final WorkerAccess workerAccess = new Access();

    private final InstantSource clock;
    private volatile boolean closed;

    private AwsWorld(AwsSettings settings, Clients clients, WorldContext context) {
        this.settings = settings;
        this.clients = clients;
        this.clock = context.clock();
        Tables tables = Tables.named(settings.tablePrefix());
        this.notifier = new DueNotifier("worldflow-aws-due " + settings.tablePrefix());
        this.wakes = new WakeQueues(clients.sqs(), settings, context.clock());
        this.consumer =
                new WakeConsumer(wakes, settings.queuePrefix(), settings.wakePoll(), context.clock(), notifier::due);
        Store store = new Store(
                clients.dynamo(),
                tables,
                context.codec(),
                context.clock(),
                notifier,
                wakes,
                ChainKey.fromConfig(context.config()).orElse(null),
                new Shards(settings.indexShards()));
        SignalCleanup cleanup = new SignalCleanup(store);
        this.signals = new DynamoSignals(store, cleanup);
        this.eventLog = new DynamoEventLog(store, cleanup, signals);
        this.taskQueue = new DynamoTaskQueue(store, consumer, settings.consumeWakes());
        this.queries = new DynamoRunQueries(store, eventLog);
        this.schedules = new DynamoSchedules(store);
        this.queues = new DynamoQueues(store);
        this.loads = new LeasedLoads(store);
    }

    public static AwsWorld open(WorldContext context) {
        return open(context, List.of());
    }

    /** Opens the world with extra SDK interceptors on both clients (metrics, tests injecting faults). */
    public static AwsWorld open(WorldContext context, List<ExecutionInterceptor> interceptors) {
        AwsSettings settings = AwsSettings.from(context.config());
        Clients clients = Clients.create(settings, interceptors);
        try {
            Tables.named(settings.tablePrefix()).ensure(clients.dynamo(), settings);
            AwsWorld world = new AwsWorld(settings, clients, context);
            world.wakes.check();
            log.info("aws world opened: {}", settings.describe());
            return world;
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    @Override
    public WorkerAccess workerAccess() {
        return workerAccess;
    }

    public AwsSettings settings() {
        return settings;
    }

    public InstantSource clock() {
        return clock;
    }

    public WakeQueues wakeQueues() {
        return wakes;
    }

    /**
     * Whether the run still has a turn available at or before {@code at} (pending, or leased and not yet
     * ended): a wake-up message due then still has work behind it.
     */
    public boolean hasTurnDueBy(String runId, Instant at) {
        return taskQueue.hasTurnDueBy(runId, at);
    }

    @Override
    public String name() {
        return "aws";
    }

    @Override
    public EventLog eventLog() {
        return eventLog;
    }

    @Override
    public TaskQueue taskQueue() {
        return taskQueue;
    }

    @Override
    public Signals signals() {
        return signals;
    }

    @Override
    public RunQueries runQueries() {
        return queries;
    }

    @Override
    public ScheduleStore schedules() {
        return schedules;
    }

    @Override
    public QueueStore queues() {
        return queues;
    }

    /**
     * A worker's requests in fewer trips: a run created or started by an append has its first turn leased in the write
     * that creates it; a lease returns the run's item, so loading a run just leased reads only its log; and the appends
     * and heartbeats of a turn held here are written from what this process last wrote ({@link HeldTurns}). Leasing
     * itself stays as the plain path has it: the due turns are read from an index, then claimed one by one.
     */
    private final class Access extends PlainWorkerAccess {

        Access() {
            super(AwsWorld.this);
        }

        @Override
        public Map<String, LoadedRun> load(Collection<String> runIds) {
            return loads.load(runIds);
        }

        @Override
        public CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(workerId, "workerId");
            TaskQueue.checkLease(leaseFor, null);
            return eventLog.createLeased(run, leaseFor);
        }

        @Override
        public LeasedAppends appendLeasingStarts(
                List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
            Objects.requireNonNull(startsToLease, "startsToLease");
            Objects.requireNonNull(workerId, "workerId");
            TaskQueue.checkLease(leaseFor, null);
            Instant now = clock.instant();
            StartLeases leases = new StartLeases(startsToLease, now, now.plus(leaseFor));
            List<AppendResult> results = eventLog.append(appends, leases);
            return new LeasedAppends(results, leases.granted());
        }

        @Override
        public boolean leasesMoves() {
            return true;
        }

        @Override
        public LeasedRuns moveLeasing(
                Collection<String> runIds,
                String from,
                String to,
                Instant at,
                Set<String> toLease,
                String workerId,
                Duration leaseFor) {
            Objects.requireNonNull(workerId, "workerId");
            return new LeasedRuns(taskQueue.moveLeasing(runIds, from, to, at, toLease, leaseFor), Map.of());
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            consumer.close();
            notifier.close();
            wakes.close();
        } finally {
            clients.close();
        }
    }
}
