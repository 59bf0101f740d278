package io.worldflow.dashboard.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RateLimit;
import io.worldflow.runtime.Queues;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The handlers of {@code /api/queues…}: reading queues with limits, and setting a queue's limits. A queue's limits are
 * stored in the world, so a change made here holds for every worker, as one made in code with
 * {@code wf.queues().define} does.
 */
final class QueuesApi {

    /** What a PUT may set. */
    private static final Set<String> LIMITS = Set.of("concurrency", "workerConcurrency", "keyConcurrency", "rateLimit");

    /**
     * What a GET answers and a PUT may send back unchanged, so that a client can put what it read: the PUT ignores
     * them, as the world keeps them.
     */
    private static final Set<String> READ_ONLY =
            Set.of("name", "waiting", "waitingCapped", "running", "throttled", "updatedAt", "changedBy", "changedAt");

    private final Worldflow wf;
    private final Bodies bodies;

    QueuesApi(Worldflow wf, Bodies bodies) {
        this.wf = wf;
        this.bodies = bodies;
    }

    private Queues queues() {
        return wf.queues();
    }

    // ---------------------------------------------------------------- reads

    /** Every stored queue, in name order: a world holds few, so there are no pages. */
    void list(Context ctx) {
        List<Map<String, Object>> out = new ArrayList<>();
        queues().list().forEach(q -> out.add(QueueViews.view(q)));
        RunsApi.json(ctx, 200, Map.of("queues", out));
    }

    void get(Context ctx) {
        String name = queueName(ctx);
        RunsApi.json(ctx, 200, QueueViews.view(describe(name)));
    }

    private QueueInfo describe(String name) {
        return queues().describe(name)
                .orElseThrow(() -> new ApiException(404, "queue_not_found", "queue '" + name + "' does not exist"));
    }

    // ---------------------------------------------------------------- actions

    /**
     * Stores the queue's limits, creating the queue when there is none: the whole set, so a limit left out is none
     * (concurrency 0, workerConcurrency 0, keyConcurrency 1, no rate limit). Looser limits admit waiting runs at once; tighter ones let the
     * runs admitted already go on.
     */
    void put(Context ctx) {
        String name = queueName(ctx);
        QueueSpec spec = spec(name, bodies.object(ctx));
        boolean existed = queues().describe(name).isPresent();
        queues().define(spec);
        RunsApi.json(ctx, existed ? 200 : 201, QueueViews.view(describe(name)));
    }

    // ---------------------------------------------------------------- parsing

    static String queueName(Context ctx) {
        String name = ctx.pathParam("name");
        try {
            QueueSpec.checkName("queue name", name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return name;
    }

    /** The limits a PUT body sets; every refusal names the field, before anything is stored. */
    static QueueSpec spec(String name, JsonNode body) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!LIMITS.contains(field) && !READ_ONLY.contains(field)) {
                throw ApiException.badRequest("unknown field '" + field
                        + "': a queue's limits are concurrency, workerConcurrency, keyConcurrency and rateLimit");
            }
        }
        JsonNode given = body.get("name");
        if (given != null && !given.isNull() && !name.equals(given.asText())) {
            throw ApiException.badRequest(
                    "'name' is '" + given.asText() + "' but the path names queue '" + name + "'; leave it out");
        }
        int concurrency = integer(body, "concurrency", 0, 0, QueueSpec.MAX_CONCURRENCY);
        int workerConcurrency = integer(body, "workerConcurrency", 0, 0, Integer.MAX_VALUE);
        int keyConcurrency = integer(body, "keyConcurrency", 1, 1, QueueSpec.MAX_CONCURRENCY);
        return new QueueSpec(name, concurrency, workerConcurrency, keyConcurrency, rateLimit(body.get("rateLimit")));
    }

    /** {@code {"starts": 20, "per": "PT1S"}}, or null or absent for none; {@code interval} is read-only. */
    private static RateLimit rateLimit(JsonNode r) {
        if (r == null || r.isNull()) {
            return null;
        }
        if (!r.isObject()) {
            throw ApiException.badRequest("'rateLimit' must be an object {\"starts\": 20, \"per\": \"PT1S\"} or null");
        }
        for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("starts") && !field.equals("per") && !field.equals("interval")) {
                throw ApiException.badRequest(
                        "unknown field 'rateLimit." + field + "': a rate limit is starts and per");
            }
        }
        JsonNode starts = r.get("starts");
        if (starts == null || starts.isNull()) {
            throw ApiException.badRequest("'rateLimit.starts' is required: how many runs may start per period");
        }
        if (!starts.isIntegralNumber() || !starts.canConvertToInt() || starts.asInt() < 1) {
            throw ApiException.badRequest("'rateLimit.starts' must be a whole number of at least 1, was " + starts);
        }
        JsonNode per = r.get("per");
        if (per == null || per.isNull()) {
            throw ApiException.badRequest("'rateLimit.per' is required: an ISO-8601 duration such as PT1S");
        }
        Duration period;
        try {
            period = per.isTextual() ? Duration.parse(per.asText().strip()) : null;
        } catch (DateTimeParseException e) {
            period = null;
        }
        if (period == null || period.compareTo(Duration.ofMillis(1)) < 0) {
            throw ApiException.badRequest(
                    "'rateLimit.per' must be an ISO-8601 duration of at least 1 ms, such as PT1S, was " + per);
        }
        return new RateLimit(starts.asInt(), period);
    }

    /** A whole number in {@code min..max}, or {@code absent} when the field is absent or null. */
    private static int integer(JsonNode body, String field, int absent, int min, int max) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min || v.asInt() > max) {
            throw ApiException.badRequest("'" + field + "' must be a whole number " + min + ".." + max + ", was " + v);
        }
        return v.asInt();
    }
}
