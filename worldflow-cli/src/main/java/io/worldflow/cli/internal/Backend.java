package io.worldflow.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.ChainReport;
import io.worldflow.QueueSpec;
import io.worldflow.RunQuery;
import io.worldflow.event.Event;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where the command finds runs: the world itself ({@link DirectBackend}) or a running dashboard's HTTP API
 * ({@link ServerBackend}). Each command is written once against this. Errors are the runtime's exceptions
 * ({@code RunNotFoundException}, {@code RunStateException}, …) or a {@link CliException} carrying its exit status.
 */
public interface Backend extends AutoCloseable {

    /** One page of the runs the query matches, newest first. */
    RunList runs(RunQuery query);

    /** How many runs the query matches (its cursor and limit aside). */
    long count(RunQuery query);

    /** @throws io.worldflow.RunNotFoundException when there is no such run */
    RunDetail run(String runId);

    /** The run's log, in order. */
    List<Event> events(String runId);

    /** The run's log as a saved history: the codec's JSON, which {@code JsonCodec.decodeEvents} reads back. */
    String history(String runId);

    /** Sends a signal whose payload is this JSON value. */
    void signal(String runId, String name, JsonNode payload);

    /** A signed URL that delivers signal {@code name} to the run when JSON is POSTed to it. */
    URI signalUrl(String runId, String name, Duration ttl, boolean singleUse);

    /** Asks the run to cancel, or with {@code terminate} ends it without running more of its code. */
    void cancel(String runId, String reason, boolean terminate);

    /** Runs a failed run again from the step whose failure ended it. */
    void retry(String runId, String reason);

    /** Checks the run's hash-chained log as stored. */
    ChainReport verify(String runId);

    /** Every schedule, in id order. */
    List<ScheduleView> schedules();

    /** @throws io.worldflow.ScheduleNotFoundException when there is no such schedule */
    ScheduleView schedule(String id);

    ScheduleView pause(String id);

    ScheduleView resume(String id);

    /** Starts a run now as if now were a fire time; empty when the overlap policy started none. */
    Optional<String> trigger(String id);

    void deleteSchedule(String id);

    /** Every queue with limits, in name order. */
    List<QueueView> queues();

    /** @throws CliException with {@link io.worldflow.cli.ExitCodes#NOT_FOUND} when there is no such queue */
    QueueView queue(String name);

    /** Stores the queue's limits (creating it when there is none), returning it as it then stands. */
    QueueView defineQueue(QueueSpec spec);

    @Override
    void close();
}
