package io.worldflow.runtime;

import io.worldflow.QueueSpec;
import io.worldflow.spi.WorldConfig;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * How a worker runs.
 *
 * @param workerId      names this worker in leases and logs
 * @param concurrency   at most this many runs execute at once (their steps run on virtual threads)
 * @param queues        the queues it takes turns from
 * @param lease         how long a claimed turn stays this worker's without a heartbeat; after a crash,
 *                      other workers resume its runs this long after the last heartbeat
 * @param pollInterval  how often an idle worker looks for work when the world sends no notice
 * @param shutdownGrace how long a stopping worker lets in-flight turns finish before handing them back
 * @param stickyWait    a run whose every thread waits keeps them in memory when the next wake-up is at
 *                      most this far away; longer waits end the turn and hold no thread
 * @param holdRetry     how often a held run (code no longer matching its history) is tried again
 * @param handleSigterm stop gracefully when the JVM shuts down (SIGTERM)
 * @param retention     which finished runs the worker deletes in the background (none by default)
 */
public record WorkerOptions(
        String workerId,
        int concurrency,
        Set<String> queues,
        Duration lease,
        Duration pollInterval,
        Duration shutdownGrace,
        Duration stickyWait,
        Duration holdRetry,
        boolean handleSigterm,
        RetentionOptions retention) {

    public static final String CONCURRENCY = "worldflow.worker.concurrency";
    public static final String QUEUES = "worldflow.worker.queues";
    public static final String LEASE = "worldflow.worker.lease";
    public static final String POLL_INTERVAL = "worldflow.worker.poll-interval";
    public static final String SHUTDOWN_GRACE = "worldflow.worker.shutdown-grace";
    public static final String STICKY_WAIT = "worldflow.worker.sticky-wait";
    public static final String HOLD_RETRY = "worldflow.worker.hold-retry";

    public WorkerOptions {
        Objects.requireNonNull(workerId, "workerId");
        if (concurrency < 1 || concurrency > 100_000) {
            throw new IllegalArgumentException("worker concurrency must be 1..100000, was " + concurrency);
        }
        queues = Set.copyOf(queues);
        if (queues.isEmpty()) {
            throw new IllegalArgumentException("a worker needs at least one queue");
        }
        queues.forEach(q -> QueueSpec.checkName("worker queue", q));
        positive("lease", lease);
        positive("pollInterval", pollInterval);
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(stickyWait, "stickyWait");
        positive("holdRetry", holdRetry);
        Objects.requireNonNull(retention, "retention");
        if (lease.toMillis() < 300) {
            throw new IllegalArgumentException("lease must be at least 300ms, was " + lease);
        }
    }

    private static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    /** The defaults, as documented in {@link WorldflowConfig#DEFAULTS}. */
    public static WorkerOptions defaults() {
        return fromConfig(WorldConfig.of(WorldflowConfig.DEFAULTS));
    }

    /**
     * The options the {@code worldflow.worker.*} keys give.
     *
     * @throws io.worldflow.ConfigurationException naming the key of a value that is malformed or out of its range
     */
    public static WorkerOptions fromConfig(WorldConfig config) {
        Set<String> queues = new LinkedHashSet<>();
        String named = config.get(QUEUES, "default");
        Arrays.stream(named.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .forEach(queues::add);
        if (queues.isEmpty()) {
            throw new io.worldflow.ConfigurationException(
                    QUEUES + " must name at least one queue, was '" + named + "'");
        }
        // each value checked here, against its key, so that an error names the key rather than the option's field
        Duration tiny = Duration.ofMillis(1);
        int concurrency = config.getInt(CONCURRENCY, 100, 1, 100_000);
        Duration lease = config.getDuration(LEASE, Duration.ofSeconds(30), Duration.ofMillis(300), null);
        Duration poll = config.getDuration(POLL_INTERVAL, Duration.ofSeconds(1), tiny, null);
        Duration grace = config.getDuration(SHUTDOWN_GRACE, Duration.ofSeconds(10), Duration.ZERO, null);
        Duration sticky = config.getDuration(STICKY_WAIT, Duration.ofMillis(200), Duration.ZERO, null);
        Duration holdRetry = config.getDuration(HOLD_RETRY, Duration.ofSeconds(60), tiny, null);
        try {
            return new WorkerOptions(
                    defaultWorkerId(),
                    concurrency,
                    queues,
                    lease,
                    poll,
                    grace,
                    sticky,
                    holdRetry,
                    true,
                    RetentionOptions.fromConfig(config));
        } catch (IllegalArgumentException e) {
            throw new io.worldflow.ConfigurationException("invalid worker configuration: " + e.getMessage(), e);
        }
    }

    static String defaultWorkerId() {
        String host = ManagementFactory.getRuntimeMXBean().getName();
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public WorkerOptions withWorkerId(String v) {
        return new WorkerOptions(
                v,
                concurrency,
                queues,
                lease,
                pollInterval,
                shutdownGrace,
                stickyWait,
                holdRetry,
                handleSigterm,
                retention);
    }

    public WorkerOptions withConcurrency(int v) {
        return new WorkerOptions(
                workerId,
                v,
                queues,
                lease,
                pollInterval,
                shutdownGrace,
                stickyWait,
                holdRetry,
                handleSigterm,
                retention);
    }

    public WorkerOptions withQueues(Set<String> v) {
        return new WorkerOptions(
                workerId,
                concurrency,
                v,
                lease,
                pollInterval,
                shutdownGrace,
                stickyWait,
                holdRetry,
                handleSigterm,
                retention);
    }

    public WorkerOptions withLease(Duration v) {
        return new WorkerOptions(
                workerId,
                concurrency,
                queues,
                v,
                pollInterval,
                shutdownGrace,
                stickyWait,
                holdRetry,
                handleSigterm,
                retention);
    }

    public WorkerOptions withPollInterval(Duration v) {
        return new WorkerOptions(
                workerId,
                concurrency,
                queues,
                lease,
                v,
                shutdownGrace,
                stickyWait,
                holdRetry,
                handleSigterm,
                retention);
    }

    public WorkerOptions withShutdownGrace(Duration v) {
        return new WorkerOptions(
                workerId, concurrency, queues, lease, pollInterval, v, stickyWait, holdRetry, handleSigterm, retention);
    }

    public WorkerOptions withStickyWait(Duration v) {
        return new WorkerOptions(
                workerId,
                concurrency,
                queues,
                lease,
                pollInterval,
                shutdownGrace,
                v,
                holdRetry,
                handleSigterm,
                retention);
    }

    public WorkerOptions withHoldRetry(Duration v) {
        return new WorkerOptions(
                workerId,
                concurrency,
                queues,
                lease,
                pollInterval,
                shutdownGrace,
                stickyWait,
                v,
                handleSigterm,
                retention);
    }

    public WorkerOptions withRetention(RetentionOptions v) {
        return new WorkerOptions(
                workerId,
                concurrency,
                queues,
                lease,
                pollInterval,
                shutdownGrace,
                stickyWait,
                holdRetry,
                handleSigterm,
                v);
    }

    public WorkerOptions withHandleSigterm(boolean v) {
        return new WorkerOptions(
                workerId, concurrency, queues, lease, pollInterval, shutdownGrace, stickyWait, holdRetry, v, retention);
    }
}
