package io.worldflow.cli.internal;

import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;

import java.time.Duration;
import java.time.Instant;

/**
 * A queue with limits as the command shows it, the same whether read from the world or from a dashboard.
 *
 * @param rateStarts     starts allowed per {@code ratePer}, or null for no rate limit
 * @param ratePer        the rate limit's period as ISO-8601 ({@code PT1S}), or null
 * @param waitingCapped  whether {@code waiting} is the most the world counts rather than the number
 */
public record QueueView(
        String name,
        int concurrency,
        int workerConcurrency,
        int keyConcurrency,
        Integer rateStarts,
        String ratePer,
        int running,
        int waiting,
        boolean waitingCapped,
        int throttled,
        Instant updatedAt,
        String changedBy,
        Instant changedAt) {

    static QueueView of(QueueInfo q) {
        QueueSpec spec = q.spec();
        return new QueueView(
                spec.name(),
                spec.concurrency(),
                spec.workerConcurrency(),
                spec.keyConcurrency(),
                spec.rateLimit() == null ? null : spec.rateLimit().starts(),
                spec.rateLimit() == null ? null : spec.rateLimit().per().toString(),
                q.running(),
                q.waiting(),
                q.waiting() >= QueueInfo.COUNT_LIMIT,
                q.throttled(),
                q.updatedAt(),
                q.changedBy(),
                q.changedAt());
    }

    /** The limits it has, to change some of them. */
    QueueSpec spec() {
        QueueSpec spec = new QueueSpec(name, concurrency, workerConcurrency, keyConcurrency, null);
        return rateStarts == null ? spec : spec.withRateLimit(rateStarts, Duration.parse(ratePer));
    }
}
