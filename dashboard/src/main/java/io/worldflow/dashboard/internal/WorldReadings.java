package io.worldflow.dashboard.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What the dashboard measures of the world itself, for a process that runs no worker and so records no meters of its
 * own: the runs in each status, the lag of the oldest due pending run, and how many runs ended in a span of time. Each
 * reading is kept for {@link #FRESH} and shared by every reader within it, so however often Prometheus scrapes or pages
 * refresh, the world is asked at most once per reading in that time.
 */
final class WorldReadings {

    /** How long a reading serves before the world is asked again. */
    static final Duration FRESH = Duration.ofSeconds(3);

    /**
     * The pending runs read to find the oldest due one, at most: a page each. A world with more pending runs than this
     * has a backlog the lag already shows; its oldest run may be older than the one found.
     */
    static final int MAX_PENDING_PAGES = 5;

    private static final Set<RunStatus> ENDED = EnumSet.of(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED);

    private final Worldflow wf;
    private Map<RunStatus, Long> counts;
    private Instant countedAt;
    private Duration lag;
    private Instant laggedAt;

    WorldReadings(Worldflow wf) {
        this.wf = wf;
    }

    /** The runs in each status, every status present. */
    synchronized Map<RunStatus, Long> counts() {
        Instant now = wf.clock().instant();
        if (countedAt == null || stale(countedAt, now)) {
            Map<RunStatus, Long> found = wf.counts(RunQuery.all());
            Map<RunStatus, Long> all = new EnumMap<>(RunStatus.class);
            for (RunStatus s : RunStatus.values()) {
                all.put(s, found.getOrDefault(s, 0L));
            }
            counts = all;
            countedAt = now;
        }
        return counts;
    }

    /**
     * How long the oldest pending run that is due (its start time come) has waited since it was due; zero when none
     * waits. A held run is left out: it waits for code, not for a worker.
     */
    synchronized Duration pendingLag() {
        Instant now = wf.clock().instant();
        if (laggedAt == null || stale(laggedAt, now)) {
            lag = oldestDue(now);
            laggedAt = now;
        }
        return lag;
    }

    private Duration oldestDue(Instant now) {
        Instant oldest = null;
        String cursor = null;
        for (int page = 0; page < MAX_PENDING_PAGES; page++) {
            RunPage runs = wf.runs(new RunQuery(
                    EnumSet.of(RunStatus.PENDING),
                    false,
                    null,
                    null,
                    null,
                    null,
                    RunQuery.MAX_LIMIT,
                    cursor,
                    null,
                    null,
                    null,
                    null,
                    null));
            for (RunInfo r : runs.runs()) {
                Instant due = r.availableAt() == null ? r.createdAt() : r.availableAt();
                if (!due.isAfter(now) && (oldest == null || due.isBefore(oldest))) {
                    oldest = due;
                }
            }
            cursor = runs.nextCursor();
            if (cursor == null) {
                break;
            }
        }
        return oldest == null ? Duration.ZERO : Duration.between(oldest, now);
    }

    /** How many runs ended (completed, failed or were canceled) from {@code from}, inclusive, to {@code to}. */
    long ended(Instant from, Instant to) {
        RunQuery query = new RunQuery(ENDED, null, null, null, null, null, 1, null, null, null, null, from, to);
        Map<RunStatus, Long> counted = wf.counts(query); // counts every status: the ended ones are summed here
        return ENDED.stream().mapToLong(s -> counted.getOrDefault(s, 0L)).sum();
    }

    private static boolean stale(Instant at, Instant now) {
        return !now.isBefore(at.plus(FRESH)) || now.isBefore(at);
    }
}
