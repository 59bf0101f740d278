package io.worldflow.dashboard.internal;

import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RateLimit;

import java.util.LinkedHashMap;
import java.util.Map;

/** How queues look in the API: the limits flat beside the counts, the rate limit as its own object. */
final class QueueViews {

    private QueueViews() {}

    /**
     * A queue: its limits and where it stands. Periods are ISO-8601 text ({@code PT1S}), as a person reads and types
     * them. The world counts waiting runs only up to {@link QueueInfo#COUNT_LIMIT}, so {@code waitingCapped} says when
     * {@code waiting} is that cap rather than the number.
     */
    static Map<String, Object> view(QueueInfo q) {
        QueueSpec spec = q.spec();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", spec.name());
        m.put("concurrency", spec.concurrency());
        m.put("workerConcurrency", spec.workerConcurrency());
        m.put("keyConcurrency", spec.keyConcurrency());
        m.put("rateLimit", rateLimit(spec.rateLimit()));
        m.put("waiting", q.waiting());
        m.put("waitingCapped", q.waiting() >= QueueInfo.COUNT_LIMIT);
        m.put("running", q.running());
        m.put("throttled", q.throttled());
        m.put("updatedAt", q.updatedAt());
        m.put("changedBy", q.changedBy());
        m.put("changedAt", q.changedAt());
        return m;
    }

    private static Map<String, Object> rateLimit(RateLimit r) {
        if (r == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("starts", r.starts());
        m.put("per", r.per().toString());
        m.put("interval", r.interval().toString());
        return m;
    }
}
