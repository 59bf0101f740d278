package io.worldflow.bench;

import io.worldflow.RunStatus;

import java.time.Instant;

/**
 * What the driver does with a world: the client calls of the workloads. Over a world that several
 * processes share it is the driver's own {@link io.worldflow.runtime.Worldflow} ({@link DirectClient}); over
 * a world owned by one process (local) it is forwarded to the worker JVM ({@link RemoteClient}).
 */
interface BenchClient extends AutoCloseable {

    /** Starts a run of a bench workflow; returns its id. One call, one run. */
    String submit(String workflow, int input);

    /** Starts a run of a bench workflow in {@code queue}, due at {@code availableAt}; returns its id. */
    String submit(String workflow, int input, String queue, Instant availableAt);

    /** Sends the run a signal whose payload is a number. */
    void signal(String runId, String name, long payload);

    /** The run's status: a primary-key lookup. */
    RunStatus status(String runId);

    /** How many runs of {@code workflow} have {@code status}. */
    long count(String workflow, RunStatus status);

    /**
     * Waits until the run has completed, through the client API's result wait: woken by the world's notice
     * that the run ended (pushed by the worker in its own process, by LISTEN/NOTIFY across processes on
     * Postgres), with primary-key lookups as the fallback.
     *
     * @throws IllegalStateException when the run ended otherwise or did not end within {@code timeoutMs}
     */
    void await(String runId, long timeoutMs);

    /** The result of a finished run, as JSON text. */
    String result(String runId);

    /** The length of the run's event log. */
    long events(String runId);

    /**
     * Milliseconds to check the run's hash chain ({@code Audit.verify}) from the process that holds the client;
     * a chain that does not hold is an error.
     */
    double verifyMillis(String runId);

    /** The engine's own timestamps over every run of {@code workflow}: first started, last finished. */
    Span span(String workflow);

    @Override
    void close();

    /** Epoch microseconds of the first event a worker wrote for any run, and of the last run's end. */
    record Span(long firstStartedMicros, long lastFinishedMicros, long runs) {
        double seconds() {
            return (lastFinishedMicros - firstStartedMicros) / 1e6;
        }
    }
}
