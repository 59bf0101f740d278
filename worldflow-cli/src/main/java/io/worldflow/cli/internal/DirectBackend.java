package io.worldflow.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.ChainReport;
import io.worldflow.QueueSpec;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.ScheduleInfo;
import io.worldflow.cli.ExitCodes;
import io.worldflow.event.Event;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.Worldflow;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Runs read and changed in the world itself, through a {@link Worldflow} that starts no worker: the command is a
 * client of the world, as an application's own code is.
 */
public final class DirectBackend implements Backend {

    private final Worldflow wf;

    DirectBackend(Worldflow wf) {
        this.wf = wf;
    }

    @Override
    public List<QueueView> queues() {
        return wf.queues().list().stream().map(QueueView::of).toList();
    }

    @Override
    public QueueView queue(String name) {
        return wf.queues()
                .describe(name)
                .map(QueueView::of)
                .orElseThrow(() -> new CliException(ExitCodes.NOT_FOUND, "queue '" + name + "' does not exist"));
    }

    @Override
    public QueueView defineQueue(QueueSpec spec) {
        wf.queues().define(spec);
        return queue(spec.name());
    }

    /** The Worldflow this reads through, for a command that needs more of it than runs (replaying, migrating). */
    public Worldflow worldflow() {
        return wf;
    }

    @Override
    public RunList runs(RunQuery query) {
        RunPage page = wf.runs(query);
        return new RunList(page.runs().stream().map(RunSummary::of).toList(), page.nextCursor());
    }

    @Override
    public long count(RunQuery query) {
        return wf.counts(query).values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public RunDetail run(String runId) {
        return RunDetail.of(wf.run(runId).orElseThrow(() -> new RunNotFoundException(runId)));
    }

    @Override
    public List<Event> events(String runId) {
        return wf.events(runId);
    }

    @Override
    public String history(String runId) {
        return wf.codec().encodeEvents(events(runId));
    }

    @Override
    public void signal(String runId, String name, JsonNode payload) {
        // a plain value (map, list, text, number), as the dashboard sends it: the run reads it as its own type
        wf.signal(runId, name, JsonCodec.defaultPayloadMapper().convertValue(payload, Object.class));
    }

    @Override
    public URI signalUrl(String runId, String name, Duration ttl, boolean singleUse) {
        return wf.signalUrl(runId, name, ttl, singleUse);
    }

    @Override
    public void cancel(String runId, String reason, boolean terminate) {
        if (terminate) {
            wf.terminate(runId, reason);
        } else {
            wf.cancel(runId, reason);
        }
    }

    @Override
    public void retry(String runId, String reason) {
        wf.retry(runId, reason);
    }

    @Override
    public ChainReport verify(String runId) {
        return wf.audit().verify(runId);
    }

    /** A schedule with its last run as it stands: a held one stops a schedule that waits for it. */
    private ScheduleView view(ScheduleInfo s) {
        return ScheduleView.of(
                s, s.lastRunId() == null ? null : wf.run(s.lastRunId()).orElse(null));
    }

    @Override
    public List<ScheduleView> schedules() {
        return wf.schedules().list().stream().map(this::view).toList();
    }

    @Override
    public ScheduleView schedule(String id) {
        return view(wf.schedules().describe(id));
    }

    @Override
    public ScheduleView pause(String id) {
        return view(wf.schedules().pause(id));
    }

    @Override
    public ScheduleView resume(String id) {
        return view(wf.schedules().resume(id));
    }

    @Override
    public Optional<String> trigger(String id) {
        return wf.schedules().trigger(id);
    }

    @Override
    public void deleteSchedule(String id) {
        wf.schedules().delete(id);
    }

    @Override
    public void close() {
        wf.close();
    }
}
