package io.worldflow.dashboard.internal;

import io.javalin.http.Context;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;
import io.worldflow.runtime.Schedules;
import io.worldflow.runtime.Worldflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers of {@code /api/schedules…}: reading schedules, pausing, resuming and triggering them. Schedules are
 * declared in the application's code, so the API neither creates nor deletes them.
 */
final class SchedulesApi {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final Worldflow wf;
    private final Bodies bodies;

    SchedulesApi(Worldflow wf, Bodies bodies) {
        this.wf = wf;
        this.bodies = bodies;
    }

    private Schedules schedules() {
        return wf.schedules();
    }

    // ---------------------------------------------------------------- reads

    /** A page in id order: {@code after} is the last id of the previous page, which {@code nextAfter} gives. */
    void list(Context ctx) {
        int limit = limit(ctx);
        String after = ctx.queryParam("after");
        if (after != null && after.isEmpty()) {
            after = null;
        }
        if (after != null && after.length() > ScheduleSpec.MAX_ID_LENGTH) {
            throw ApiException.badRequest(
                    "'after' is longer than " + ScheduleSpec.MAX_ID_LENGTH + " characters, as no schedule id is");
        }
        // one more than asked tells whether there is a next page without a second read
        List<ScheduleInfo> found = schedules().list(after, limit + 1);
        List<ScheduleInfo> page = found.size() > limit ? found.subList(0, limit) : found;
        List<Map<String, Object>> out = new ArrayList<>(page.size());
        boolean secrets = Auth.seesSecrets(ctx);
        page.forEach(s -> out.add(ScheduleViews.view(s, wf.codec(), secrets)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("schedules", out);
        body.put("nextAfter", found.size() > limit ? page.getLast().id() : null);
        RunsApi.json(ctx, 200, body);
    }

    void get(Context ctx) {
        RunsApi.json(
                ctx, 200, ScheduleViews.view(schedules().describe(scheduleId(ctx)), wf.codec(), Auth.seesSecrets(ctx)));
    }

    // ---------------------------------------------------------------- actions

    void pause(Context ctx) {
        String id = scheduleId(ctx);
        bodies.object(ctx);
        RunsApi.json(ctx, 200, ScheduleViews.view(schedules().pause(id), wf.codec(), Auth.seesSecrets(ctx)));
    }

    void resume(Context ctx) {
        String id = scheduleId(ctx);
        bodies.object(ctx);
        RunsApi.json(ctx, 200, ScheduleViews.view(schedules().resume(id), wf.codec(), Auth.seesSecrets(ctx)));
    }

    /**
     * A run now, as if now were a fire time. The overlap policy still applies: while the previous run goes on, a
     * schedule that skips starts nothing, and {@code startedRunId} is then null.
     */
    void trigger(Context ctx) {
        String id = scheduleId(ctx);
        bodies.object(ctx);
        String started = schedules().trigger(id).orElse(null);
        Map<String, Object> out = ScheduleViews.view(schedules().describe(id), wf.codec(), Auth.seesSecrets(ctx));
        out.put("startedRunId", started);
        RunsApi.json(ctx, 200, out);
    }

    // ---------------------------------------------------------------- parsing

    static String scheduleId(Context ctx) {
        String id = ctx.pathParam("scheduleId");
        if (id.isEmpty() || id.length() > ScheduleSpec.MAX_ID_LENGTH) {
            throw ApiException.badRequest("a schedule id is 1.." + ScheduleSpec.MAX_ID_LENGTH + " characters");
        }
        return id;
    }

    private static int limit(Context ctx) {
        String l = ctx.queryParam("limit");
        if (l == null || l.isBlank()) {
            return DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(l.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("'limit' must be a whole number, was '" + l + "'");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.badRequest("'limit' must be 1.." + MAX_LIMIT + ", was " + limit);
        }
        return limit;
    }
}
