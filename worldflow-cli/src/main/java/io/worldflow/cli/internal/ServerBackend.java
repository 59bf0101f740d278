package io.worldflow.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.worldflow.ChainReport;
import io.worldflow.QueueSpec;
import io.worldflow.RunQuery;
import io.worldflow.cli.ExitCodes;
import io.worldflow.event.Event;
import io.worldflow.runtime.JsonCodec;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs read and changed through a running dashboard's HTTP API ({@code /api/openapi.json}), for a world that belongs
 * to another process (the local world's file) or that the caller may reach only through the dashboard. What the
 * token's role does not allow, the dashboard refuses, and the command says so.
 */
public final class ServerBackend implements Backend {

    private static final int SCHEDULE_PAGE = 500;

    private final HttpApi api;
    private final ObjectMapper mapper;
    private final JsonCodec codec = new JsonCodec();

    ServerBackend(URI root, String token, ObjectMapper mapper) {
        this.api = new HttpApi(root, token, mapper);
        this.mapper = mapper;
    }

    @Override
    public RunList runs(RunQuery query) {
        JsonNode page = api.get("/api/runs?" + ServerQueries.of(query, true));
        List<RunSummary> runs = new ArrayList<>();
        for (JsonNode r : page.path("runs")) {
            runs.add(new RunSummary(
                    r.path("runId").asText(),
                    r.path("workflow").asText(),
                    r.path("status").asText(),
                    ServerQueries.instant(r.path("createdAt")),
                    ServerQueries.instant(r.path("updatedAt")),
                    ServerQueries.text(r.path("heldReason")),
                    ServerQueries.text(r.path("error")),
                    attributes(r.path("searchAttributes"))));
        }
        return new RunList(runs, ServerQueries.text(page.path("nextCursor")));
    }

    @Override
    public long count(RunQuery query) {
        JsonNode counts = api.get("/api/counts?" + ServerQueries.of(query, false));
        long total = 0;
        for (Map.Entry<String, JsonNode> e : counts.properties()) {
            // "held" counts runs already counted by their status
            if (!e.getKey().equals("held")) {
                total += e.getValue().asLong();
            }
        }
        return total;
    }

    @Override
    public RunDetail run(String runId) {
        JsonNode r = api.get("/api/runs/" + HttpApi.segment(runId));
        JsonNode cancel = r.path("cancelRequest");
        JsonNode output = r.path("output");
        return new RunDetail(
                r.path("runId").asText(),
                r.path("workflow").asText(),
                r.path("status").asText(),
                ServerQueries.instant(r.path("createdAt")),
                ServerQueries.instant(r.path("updatedAt")),
                ServerQueries.instant(r.path("deadline")),
                ServerQueries.text(r.path("queue")),
                ServerQueries.text(r.path("key")),
                r.path("priority").asInt(),
                r.path("logLength").asLong(),
                ServerQueries.error(r.path("error")),
                ServerQueries.error(r.path("held")),
                ServerQueries.instant(r.path("heldSince")),
                cancel.isObject()
                        ? new RunDetail.CancelRequest(
                                ServerQueries.text(cancel.path("reason")),
                                ServerQueries.instant(cancel.path("requestedAt")),
                                cancel.path("terminate").asBoolean(),
                                ServerQueries.text(cancel.path("actor")))
                        : null,
                output.isMissingNode() || output.isNull() ? null : output.toString(),
                attributes(r.path("searchAttributes")));
    }

    @Override
    public List<Event> events(String runId) {
        return codec.decodeEvents(history(runId));
    }

    @Override
    public String history(String runId) {
        return api.getText("/api/runs/" + HttpApi.segment(runId) + "/events?format=codec");
    }

    @Override
    public void signal(String runId, String name, JsonNode payload) {
        api.post(runPath(runId) + "/signals/" + HttpApi.segment(name), payload.toString());
    }

    @Override
    public URI signalUrl(String runId, String name, Duration ttl, boolean singleUse) {
        if (ttl.toSeconds() < 1) {
            throw new CliException(ExitCodes.USAGE, "--ttl must be at least a second through a server, was " + ttl);
        }
        ObjectNode body = mapper.createObjectNode()
                .put("name", name)
                .put("ttlSeconds", ttl.toSeconds())
                .put("singleUse", singleUse);
        return URI.create(api.post(runPath(runId) + "/signal-urls", body.toString())
                .path("url")
                .asText());
    }

    @Override
    public void cancel(String runId, String reason, boolean terminate) {
        api.post(runPath(runId) + (terminate ? "/terminate" : "/cancel"), reasonBody(reason));
    }

    @Override
    public void retry(String runId, String reason) {
        api.post(runPath(runId) + "/retry", reasonBody(reason));
    }

    @Override
    public ChainReport verify(String runId) {
        JsonNode c = api.get(runPath(runId) + "/chain");
        JsonNode brokenAt = c.path("brokenAt");
        return new ChainReport(
                c.path("runId").asText(runId),
                c.path("logLength").asLong(),
                c.path("chainedFrom").asLong(),
                ServerQueries.text(c.path("head")),
                brokenAt.isNumber() ? brokenAt.asLong() : null,
                ServerQueries.text(c.path("problem")));
    }

    @Override
    public List<ScheduleView> schedules() {
        List<ScheduleView> all = new ArrayList<>();
        String after = null;
        do {
            JsonNode page = api.get("/api/schedules?limit=" + SCHEDULE_PAGE
                    + (after == null ? "" : "&after=" + ServerQueries.param(after)));
            page.path("schedules").forEach(s -> all.add(schedule(s)));
            after = ServerQueries.text(page.path("nextAfter"));
        } while (after != null);
        return all;
    }

    @Override
    public ScheduleView schedule(String id) {
        return schedule(api.get(schedulePath(id)));
    }

    @Override
    public ScheduleView pause(String id) {
        return schedule(api.post(schedulePath(id) + "/pause", "{}"));
    }

    @Override
    public ScheduleView resume(String id) {
        return schedule(api.post(schedulePath(id) + "/resume", "{}"));
    }

    @Override
    public Optional<String> trigger(String id) {
        return Optional.ofNullable(
                ServerQueries.text(api.post(schedulePath(id) + "/trigger", "{}").path("startedRunId")));
    }

    @Override
    public void deleteSchedule(String id) {
        // the dashboard's API neither creates nor deletes schedules; removing a declaration from the code deletes
        // nothing either, so the world itself is the one place to delete one
        throw new CliException(
                ExitCodes.USAGE,
                "a dashboard does not delete schedules; delete '" + id + "' in the world itself (without --server;"
                        + " removing its declaration from the code does not stop it)");
    }

    @Override
    public List<QueueView> queues() {
        List<QueueView> all = new ArrayList<>();
        api.get("/api/queues").path("queues").forEach(q -> all.add(queue(q)));
        return all;
    }

    @Override
    public QueueView queue(String name) {
        return queue(api.get(queuePath(name)));
    }

    @Override
    public QueueView defineQueue(QueueSpec spec) {
        ObjectNode body = mapper.createObjectNode()
                .put("concurrency", spec.concurrency())
                .put("workerConcurrency", spec.workerConcurrency())
                .put("keyConcurrency", spec.keyConcurrency());
        if (spec.rateLimit() != null) {
            body.putObject("rateLimit")
                    .put("starts", spec.rateLimit().starts())
                    .put("per", spec.rateLimit().per().toString());
        } else {
            body.putNull("rateLimit");
        }
        return queue(api.put(queuePath(spec.name()), body.toString()));
    }

    @Override
    public void close() {
        // HttpClient holds nothing that must be released before the process ends
    }

    private static String runPath(String runId) {
        return "/api/runs/" + HttpApi.segment(runId);
    }

    private static String queuePath(String name) {
        return "/api/queues/" + HttpApi.segment(name);
    }

    private static QueueView queue(JsonNode q) {
        JsonNode rate = q.path("rateLimit");
        return new QueueView(
                q.path("name").asText(),
                q.path("concurrency").asInt(),
                q.path("workerConcurrency").asInt(),
                q.path("keyConcurrency").asInt(),
                rate.isObject() ? rate.path("starts").asInt() : null,
                rate.isObject() ? rate.path("per").asText() : null,
                q.path("running").asInt(),
                q.path("waiting").asInt(),
                q.path("waitingCapped").asBoolean(),
                q.path("throttled").asInt(),
                ServerQueries.instant(q.path("updatedAt")),
                ServerQueries.text(q.path("changedBy")),
                ServerQueries.instant(q.path("changedAt")));
    }

    private static String schedulePath(String id) {
        return "/api/schedules/" + HttpApi.segment(id);
    }

    private String reasonBody(String reason) {
        ObjectNode body = mapper.createObjectNode();
        if (reason != null) {
            body.put("reason", reason);
        }
        return body.toString();
    }

    private Map<String, Object> attributes(JsonNode values) {
        return values.isObject() ? ServerQueries.attributes(values, mapper) : Map.of();
    }

    private static ScheduleView schedule(JsonNode s) {
        List<Instant> upcoming = new ArrayList<>();
        s.path("upcoming").forEach(t -> upcoming.add(ServerQueries.instant(t)));
        return new ScheduleView(
                s.path("id").asText(),
                s.path("workflow").asText(),
                ServerQueries.text(s.path("cron")),
                ServerQueries.text(s.path("every")),
                s.path("zone").asText(),
                s.path("overlap").asText(),
                s.path("paused").asBoolean(),
                ServerQueries.instant(s.path("nextFireAt")),
                upcoming,
                ServerQueries.instant(s.path("lastFireAt")),
                ServerQueries.text(s.path("lastRunId")),
                ServerQueries.text(s.path("lastRunStatus")),
                ServerQueries.text(s.path("lastRunHeld")),
                ServerQueries.text(s.path("changedBy")));
    }
}
