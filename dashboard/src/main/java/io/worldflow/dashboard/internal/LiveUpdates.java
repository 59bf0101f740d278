package io.worldflow.dashboard.internal;

import io.javalin.http.sse.SseClient;
import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.event.Event;
import io.worldflow.runtime.Worldflow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Server-sent events. {@code /api/live/runs} sends {@code runs} (the counts by status) whenever the counts or
 * the first page of runs change; {@code /api/runs/{id}/live} sends {@code events} (new events, in the export
 * format) as the run's log grows, and {@code run} (its summary) when its status changes or a hold begins or ends.
 * One thread looks for changes for every open stream, twice a second.
 */
final class LiveUpdates implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveUpdates.class);

    private final Worldflow wf;
    private final RunsApi runs;
    private final Map<SseClient, Watch> watches = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "worldflow-dashboard-live");
        t.setDaemon(true);
        return t;
    });

    LiveUpdates(Worldflow wf, RunsApi runs) {
        this.wf = wf;
        this.runs = runs;
        ticker.scheduleWithFixedDelay(this::tick, 500, 500, TimeUnit.MILLISECONDS);
    }

    private sealed interface Watch permits RunsWatch, RunWatch {}

    private static final class RunsWatch implements Watch {
        final RunQuery query;
        Object last;

        RunsWatch(RunQuery query) {
            this.query = query;
        }
    }

    private static final class RunWatch implements Watch {
        final String runId;
        /** Whether the watcher may see secrets in clear, as its request's caller was found. */
        final boolean secrets;

        long nextSeq;
        String lastState;

        RunWatch(String runId, boolean secrets) {
            this.runId = runId;
            this.secrets = secrets;
        }
    }

    void watchRuns(SseClient client, RunQuery query) {
        add(client, new RunsWatch(query));
    }

    void watchRun(SseClient client, String runId) {
        add(client, new RunWatch(runId, Auth.seesSecrets(client.ctx())));
    }

    private void add(SseClient client, Watch watch) {
        client.keepAlive();
        client.onClose(() -> watches.remove(client));
        watches.put(client, watch);
        ticker.execute(() -> send(client, watch));
    }

    private void tick() {
        watches.forEach(this::send);
    }

    private void send(SseClient client, Watch watch) {
        if (client.terminated()) {
            watches.remove(client);
            return;
        }
        try {
            synchronized (watch) {
                switch (watch) {
                    case RunsWatch w -> sendRuns(client, w);
                    case RunWatch w -> sendRun(client, w);
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("live update failed; the stream is closed", e);
            watches.remove(client);
            client.close();
        }
    }

    private void sendRuns(SseClient client, RunsWatch w) {
        Map<String, Long> counts = runs.counts(w.query);
        RunPage page = wf.runs(w.query.withCursor(null));
        List<List<Object>> firstPage = page.runs().stream()
                .map(r -> List.<Object>of(r.runId(), r.status().name(), r.updatedAt(), r.isHeld()))
                .toList();
        Object now = List.of(counts, firstPage);
        if (!Objects.equals(now, w.last)) {
            w.last = now;
            client.sendEvent("runs", Json.write(Map.of("counts", counts)));
        }
    }

    private void sendRun(SseClient client, RunWatch w) {
        Optional<RunInfo> info = wf.run(w.runId);
        if (info.isEmpty()) {
            client.sendEvent("gone", Json.error("run_not_found", "run '" + w.runId + "' does not exist"));
            watches.remove(client);
            client.close();
            return;
        }
        List<Event> events = wf.world().eventLog().read(w.runId, w.nextSeq);
        if (!events.isEmpty()) {
            w.nextSeq = events.getLast().seq() + 1;
            client.sendEvent("events", EventViews.write(wf.codec(), events, w.secrets));
        }
        String state = info.get().status().name() + (info.get().isHeld() ? " held" : "");
        if (!state.equals(w.lastState)) {
            w.lastState = state;
            client.sendEvent("run", Json.write(RunViews.summary(info.get())));
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        watches.keySet().forEach(SseClient::close);
        watches.clear();
    }
}
