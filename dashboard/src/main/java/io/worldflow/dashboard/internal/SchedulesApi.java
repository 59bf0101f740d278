package io.worldflow.dashboard.internal;

import io.javalin.http.Context;
import io.worldflow.RunInfo;
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
        page.forEach(s -> out.add(view(s, ctx)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("schedules", out);
        body.put("nextAfter", found.size() > limit ? page.getLast().id() : null);
        RunsApi.json(ctx, 200, body);
    }

    void get(Context ctx) {
        RunsApi.json(ctx, 200, view(schedules().describe(scheduleId(ctx)), ctx));
    }

    // ---------------------------------------------------------------- actions

    void pause(Context ctx) {
        String id = scheduleId(ctx);
        bodies.object(ctx);
        RunsApi.json(ctx, 200, view(schedules().pause(id), ctx));
    }

    void resume(Context ctx) {
        String id = scheduleId(ctx);
        bodies.object(ctx);
        RunsApi.json(ctx, 200, view(schedules().resume(id), ctx));
    }

    /**
     * A run now, as if now were a fire time. The overlap policy still applies: while the previous run goes on, a
     * schedule that skips starts nothing, and {@code startedRunId} is then null.
     */
    void trigger(Context ctx) {
        String id = scheduleId(ctx);
        bodies.object(ctx);
        String started = schedules().trigger(id).orElse(null);
        Map<String, Object> out = view(schedules().describe(id), ctx);
        out.put("startedRunId", started);
        RunsApi.json(ctx, 200, out);
    }

    /**
     * A schedule as the API shows it, with its last run's status and hold: a held run keeps its status, so under a
     * policy that waits for the previous run it stops the schedule until the hold ends, which its page should say.
     */
    private Map<String, Object> view(ScheduleInfo s, Context ctx) {
        RunInfo last = s.lastRunId() == null ? null : wf.run(s.lastRunId()).orElse(null);
        return ScheduleViews.view(s, last, wf.codec(), Auth.seesSecrets(ctx));
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
