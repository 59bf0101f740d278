package io.worldflow.dashboard.internal;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;
import io.worldflow.runtime.JsonCodec;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** How schedules look in the API: the spec's fields flat beside the schedule's state. */
final class ScheduleViews {

    private ScheduleViews() {}

    /**
     * A schedule: what it starts and when, whether it is paused, its next fire times, its last run ({@code lastRun}:
     * that run as it stands, null when it is gone or there is none), with its status and why it is held. Durations are
     * ISO-8601 text ({@code PT30S}) and the zone its id, as a person reads and types them.
     */
    static Map<String, Object> view(ScheduleInfo s, RunInfo lastRun, JsonCodec codec, boolean secrets) {
        ScheduleSpec spec = s.spec();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", spec.id());
        m.put("workflow", spec.workflow());
        m.put("cron", spec.cron());
        m.put("every", text(spec.every()));
        m.put("zone", spec.zone().getId());
        m.put("startAt", spec.startAt());
        m.put("endAt", spec.endAt());
        m.put("jitter", text(spec.jitter()));
        m.put("overlap", spec.overlap().name());
        m.put("catchUp", spec.catchUp().name());
        m.put("catchUpWindow", text(spec.catchUpWindow()));
        m.put("queue", spec.queue());
        m.put("priority", spec.priority());
        m.put("searchAttributes", SearchViews.values(spec.searchAttributes()));
        m.put("searchAttributeTypes", SearchViews.types(spec.searchAttributes()));
        m.put("paused", s.paused());
        m.put("nextFireAt", s.nextFireAt());
        m.put("upcoming", s.upcoming());
        m.put("lastFireAt", s.lastFireAt());
        m.put("lastRunId", s.lastRunId());
        m.put("lastRunStatus", lastRun == null ? null : lastRun.status().name());
        m.put(
                "lastRunHeld",
                lastRun == null || lastRun.held() == null
                        ? null
                        : lastRun.held().message());
        m.put("buffered", s.buffered());
        m.put("createdAt", s.createdAt());
        m.put("updatedAt", s.updatedAt());
        m.put("changedBy", s.changedBy());
        // a stored schedule's input is the payload it was written as; it is shown as the runs API shows payloads
        m.put(
                "input",
                spec.input() instanceof Payload p
                        ? Json.payload(p, codec, secrets)
                        : Json.mapper().valueToTree(spec.input()));
        return m;
    }

    private static String text(Duration d) {
        return d == null ? null : d.toString();
    }
}
