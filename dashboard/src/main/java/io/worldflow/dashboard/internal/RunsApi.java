package io.worldflow.dashboard.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.StartOptions;
import io.worldflow.event.Event;
import io.worldflow.runtime.WorkflowReplayer;
import io.worldflow.runtime.Worldflow;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The handlers of {@code /api/runs…}: reading runs and acting on them. */
final class RunsApi {

    private static final int MAX_TEXT = 200;

    private final Worldflow wf;
    private final Bodies bodies;
    private final Supplier<URI> ownUrl;

    /** @param ownUrl the dashboard's address: the root of signal URLs unless {@code worldflow.signal.url} is set */
    RunsApi(Worldflow wf, Bodies bodies, Supplier<URI> ownUrl) {
        this.wf = wf;
        this.bodies = bodies;
        this.ownUrl = ownUrl;
    }

    // ---------------------------------------------------------------- reads

    void list(Context ctx) {
        RunQuery query = query(ctx, true);
        RunPage page = wf.runs(query);
        List<Map<String, Object>> runs = new ArrayList<>(page.runs().size());
        page.runs().forEach(r -> runs.add(RunViews.summary(r)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("runs", runs);
        body.put("nextCursor", page.nextCursor());
        json(ctx, 200, body);
    }

    void counts(Context ctx) {
        json(ctx, 200, counts(query(ctx, false)));
    }

    /** The number of runs in each status, then {@code held}: how many of them are held, whatever their status. */
    Map<String, Long> counts(RunQuery query) {
        Map<RunStatus, Long> counted = wf.counts(query);
        Map<String, Long> out = new LinkedHashMap<>();
        for (RunStatus s : RunStatus.values()) {
            out.put(s.name(), counted.getOrDefault(s, 0L));
        }
        Map<RunStatus, Long> held =
                query.held() == null ? wf.counts(query.withHeld(true)) : query.held() ? counted : Map.of();
        out.put("held", held.values().stream().mapToLong(Long::longValue).sum());
        return out;
    }

    void get(Context ctx) {
        String runId = runId(ctx);
        RunInfo info = wf.run(runId).orElseThrow(() -> new RunNotFoundException(runId));
        List<Event> events = wf.events(runId);
        // a pending run in a queue with limits may be waiting for the queue to admit it: its page shows the queue
        QueueInfo queue = info.status() == RunStatus.PENDING
                ? wf.queues().describe(info.queue()).orElse(null)
                : null;
        Map<String, Object> view = RunViews.detail(
                info,
                events,
                wf.world().signals().pending(runId),
                wf.world().signals().revokedUrls(runId),
                queue,
                signalTypes(info.workflow()),
                wf.codec(),
                Auth.seesSecrets(ctx));
        if (view.get("continuedAs") != null) {
            // the run ended by handing over: where its chain stands now is what a reader of it wants to know
            RunInfo newest = wf.handle(runId).info();
            Map<String, Object> chain = new LinkedHashMap<>();
            chain.put("runId", newest.runId());
            chain.put("status", newest.status().name());
            view.put("newestOfChain", chain);
        }
        json(ctx, 200, view);
    }

    /**
     * The timeline, the export format: each payload as its value with its type beside it ({@link EventViews}), or with
     * {@code format=codec} the codec's own JSON, the saved history that {@code JsonCodec.decodeEvents} reads back.
     */
    void events(Context ctx) {
        String runId = runId(ctx);
        boolean codec = codecFormat(ctx);
        List<Event> events = wf.events(runId);
        if ("1".equals(ctx.queryParam("download"))) {
            ctx.header(
                    "Content-Disposition",
                    "attachment; filename=\"" + fileName(runId) + (codec ? "-history.json" : "-events.json") + "\"");
        }
        String body =
                codec ? wf.codec().encodeEvents(events) : EventViews.write(wf.codec(), events, Auth.seesSecrets(ctx));
        ctx.status(200).contentType("application/json").result(body);
    }

    /** What checking the run's hash chain finds. */
    void chain(Context ctx) {
        json(ctx, 200, RunViews.chain(wf.audit().verify(runId(ctx))));
    }

    /** Whether the run's history still matches the code this process registers for its workflow: a replay, no write. */
    void replay(Context ctx) {
        String runId = runId(ctx);
        List<Event> events = wf.events(runId);
        WorkflowReplayer.Result r = wf.replayer().check(events);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("runId", runId);
        body.put("workflow", r.workflow());
        body.put("outcome", r.outcome().name());
        body.put("detail", r.detail());
        body.put("events", r.events());
        json(ctx, 200, body);
    }

    /** The run's log as stored with its chain, which checks away from the world ({@code LogChain.read}). */
    void chainExport(Context ctx) {
        String runId = runId(ctx);
        String body = wf.audit().exportLog(runId);
        ctx.header("Content-Disposition", "attachment; filename=\"" + fileName(runId) + "-log.json\"");
        ctx.status(200).contentType("application/json").result(body);
    }

    // ---------------------------------------------------------------- actions

    void start(Context ctx) {
        JsonNode body = bodies.object(ctx);
        String workflow = text(body, "workflow", true);
        StartOptions options = StartOptions.defaults();
        String id = text(body, "id", false);
        if (id != null) {
            options = options.withId(id);
        }
        String queue = text(body, "queue", false);
        if (queue != null) {
            options = options.withQueue(queue);
        }
        if (body.has("priority")) {
            options = options.withPriority(integer(body, "priority", -1000, 1000));
        }
        if (body.has("delaySeconds")) {
            options = options.withDelay(Duration.ofSeconds(integer(body, "delaySeconds", 0, 366 * 86400)));
        }
        if (body.has("searchAttributes")) {
            options = options.withSearchAttributes(searchAttributes(body.get("searchAttributes")));
        }
        Object input = Json.mapper().convertValue(body.path("input"), Object.class);
        boolean existed = id != null && wf.run(id).isPresent();
        String runId = wf.submit(workflow, input, options);
        RunInfo info = wf.run(runId).orElseThrow();
        if (!info.workflow().equals(workflow)) {
            throw new ApiException(
                    409,
                    "conflict",
                    "run id '" + runId + "' already belongs to a run of workflow '" + info.workflow() + "'");
        }
        Map<String, Object> out = new LinkedHashMap<>(RunViews.summary(info));
        out.put("created", !existed);
        json(ctx, existed ? 200 : 201, out);
    }

    /** A start's {@code searchAttributes}: a list of {@code name:value} or {@code name:type:value}, as a filter. */
    private static SearchAttributes searchAttributes(JsonNode list) {
        if (!list.isArray()) {
            throw ApiException.badRequest("'searchAttributes' must be a list of \"name:value\" or"
                    + " \"name:type:value\" (type string, long, boolean or instant)");
        }
        List<String> specs = new ArrayList<>();
        for (JsonNode entry : list) {
            if (!entry.isTextual()) {
                throw ApiException.badRequest(
                        "'searchAttributes' holds " + entry.getNodeType().name().toLowerCase(Locale.ROOT) + " " + entry
                                + ", not a \"name:value\" string");
            }
            specs.add(entry.asText());
        }
        return SearchViews.parse("searchAttributes", specs);
    }

    void cancel(Context ctx) {
        String runId = runId(ctx);
        JsonNode body = bodies.object(ctx);
        wf.cancel(runId, reason(body));
        accepted(ctx, runId, "cancel requested");
    }

    void terminate(Context ctx) {
        String runId = runId(ctx);
        JsonNode body = bodies.object(ctx);
        wf.terminate(runId, reason(body));
        accepted(ctx, runId, "termination requested");
    }

    void retry(Context ctx) {
        String runId = runId(ctx);
        JsonNode body = bodies.object(ctx);
        wf.retry(runId, reason(body));
        accepted(ctx, runId, "retrying");
    }

    /**
     * The types the run's workflow declares for its signals, by name, when this process registers it: what a signal of
     * that name sent here is read as, and refused when it is not one.
     */
    private Map<String, String> signalTypes(String workflow) {
        Map<String, String> types = new java.util.TreeMap<>();
        wf.workflow(workflow)
                .ifPresent(w -> w.options().signalTypes().forEach((name, type) -> types.put(name, type.getName())));
        return types;
    }

    /** The body is the signal's payload, any JSON value. */
    void signal(Context ctx) {
        String runId = runId(ctx);
        String name = ctx.pathParam("name");
        // no body is no payload, as on a signal URL: a signal whose type is declared refuses it
        JsonNode payload = bodies.jsonOrNull(ctx);
        wf.signal(runId, name, payload == null ? null : Json.mapper().convertValue(payload, Object.class));
        accepted(ctx, runId, "signal '" + name + "' delivered");
    }

    /** Makes a signed signal URL: {@code {"name": "...", "ttlSeconds": 3600, "singleUse": false}}. */
    void signalUrl(Context ctx) {
        String runId = runId(ctx);
        JsonNode body = bodies.object(ctx);
        String name = text(body, "name", true);
        int ttl = body.has("ttlSeconds") ? integer(body, "ttlSeconds", 1, 366 * 86400) : 86400;
        boolean singleUse = body.path("singleUse").asBoolean(false);
        if (body.has("singleUse") && !body.get("singleUse").isBoolean()) {
            throw ApiException.badRequest("'singleUse' must be true or false");
        }
        Instant expires = wf.clock().instant().plusSeconds(ttl);
        Duration ttlFor = Duration.ofSeconds(ttl);
        String url = (wf.config().get(Worldflow.SIGNAL_URL).isPresent()
                        ? wf.signalUrl(runId, name, ttlFor, singleUse)
                        : wf.signalUrl(ownUrl.get(), runId, name, ttlFor, singleUse))
                .toString();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("url", url);
        out.put("expiresAt", expires);
        out.put("singleUse", singleUse);
        json(ctx, 201, out);
    }

    /** Revokes one of the run's signal URLs, given whole in the body ({@code {"url": …}}). */
    void revokeSignalUrl(Context ctx) {
        String runId = runId(ctx);
        String url = text(bodies.object(ctx), "url", true);
        java.net.URI uri;
        try {
            uri = java.net.URI.create(url);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("'url' is not a URL: " + e.getMessage());
        }
        String[] segments =
                uri.getRawPath() == null ? new String[0] : uri.getRawPath().split("/", -1);
        if (segments.length < 3
                || !runId.equals(java.net.URLDecoder.decode(
                        segments[segments.length - 2], java.nio.charset.StandardCharsets.UTF_8))) {
            throw ApiException.badRequest("'url' is not a signal URL of run '" + runId + "'");
        }
        String tokenId;
        try {
            tokenId = wf.revokeSignalUrl(uri);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runId", runId);
        out.put("tokenId", tokenId);
        out.put("revoked", true);
        json(ctx, 200, out);
    }

    // ---------------------------------------------------------------- parsing

    /**
     * The filters of a list or count: status, held, workflow, idPrefix, parent, queue, attr ({@link SearchViews}),
     * createdAfter, createdBefore, updatedAfter, updatedBefore, and for a list limit and cursor.
     */
    RunQuery query(Context ctx, boolean paged) {
        Set<RunStatus> statuses = EnumSet.noneOf(RunStatus.class);
        String status = ctx.queryParam("status");
        if (status != null && !status.isBlank()) {
            for (String s : status.split(",")) {
                statuses.add(status(s.strip()));
            }
        }
        int limit = 50;
        String cursor = null;
        if (paged) {
            String l = ctx.queryParam("limit");
            if (l != null) {
                try {
                    limit = Integer.parseInt(l.strip());
                } catch (NumberFormatException e) {
                    throw ApiException.badRequest("'limit' must be a whole number, was '" + l + "'");
                }
                if (limit < 1 || limit > RunQuery.MAX_LIMIT) {
                    throw ApiException.badRequest("'limit' must be 1.." + RunQuery.MAX_LIMIT + ", was " + limit);
                }
            }
            cursor = param(ctx, "cursor", 1000);
        }
        return new RunQuery(
                statuses,
                held(ctx),
                param(ctx, "workflow", MAX_TEXT),
                param(ctx, "idPrefix", MAX_TEXT),
                instant(ctx, "createdAfter"),
                instant(ctx, "createdBefore"),
                limit,
                cursor,
                param(ctx, "parent", MAX_TEXT),
                SearchViews.filter(ctx.queryParams("attr")),
                queue(ctx),
                instant(ctx, "updatedAfter"),
                instant(ctx, "updatedBefore"));
    }

    /** {@code queue}: only runs of this queue; absent or empty: any. */
    private static String queue(Context ctx) {
        String v = ctx.queryParam("queue");
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            QueueSpec.checkName("'queue'", v);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return v;
    }

    private static RunStatus status(String s) {
        try {
            return RunStatus.valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("unknown status '" + s + "'; use one of " + List.of(RunStatus.values()));
        }
    }

    /** {@code held=true}: only held runs; {@code held=false}: only runs not held; absent: both. */
    private static Boolean held(Context ctx) {
        String v = ctx.queryParam("held");
        if (v == null || v.isBlank()) {
            return null;
        }
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiException.badRequest("'held' must be true or false, was '" + v + "'");
        };
    }

    /** {@code format=values} (the default) or {@code format=codec}. */
    private static boolean codecFormat(Context ctx) {
        String v = ctx.queryParam("format");
        if (v == null || v.isBlank() || v.strip().equals("values")) {
            return false;
        }
        if (v.strip().equals("codec")) {
            return true;
        }
        throw ApiException.badRequest("'format' must be values or codec, was '" + v + "'");
    }

    private static String param(Context ctx, String name, int max) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        if (v.length() > max) {
            throw ApiException.badRequest("'" + name + "' is longer than " + max + " characters");
        }
        return v;
    }

    private static Instant instant(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(v.strip());
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "'" + name + "' must be an ISO-8601 instant such as 2026-11-22T10:00:00Z, was '" + v + "'");
        }
    }

    static String runId(Context ctx) {
        String id = ctx.pathParam("runId");
        if (id.isEmpty() || id.length() > StartOptions.MAX_ID_LENGTH) {
            throw ApiException.badRequest("a run id is 1.." + StartOptions.MAX_ID_LENGTH + " characters");
        }
        return id;
    }

    private static String text(JsonNode body, String field, boolean required) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw ApiException.badRequest("'" + field + "' is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.badRequest("'" + field + "' must be a string, was " + v.getNodeType());
        }
        return v.asText();
    }

    private static int integer(JsonNode body, String field, int min, int max) {
        JsonNode v = body.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min || v.asInt() > max) {
            throw ApiException.badRequest("'" + field + "' must be a whole number " + min + ".." + max);
        }
        return v.asInt();
    }

    private static String reason(JsonNode body) {
        String reason = text(body, "reason", false);
        if (reason != null && reason.length() > 1000) {
            throw ApiException.badRequest("'reason' is at most 1000 characters");
        }
        return reason;
    }

    private static String fileName(String runId) {
        return runId.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static void accepted(Context ctx, String runId, String what) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runId", runId);
        out.put("result", what);
        json(ctx, 202, out);
    }

    static void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(Json.write(body));
    }
}
