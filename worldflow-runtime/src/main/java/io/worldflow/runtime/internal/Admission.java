package io.worldflow.runtime.internal;

import io.worldflow.QueueSpec;
import io.worldflow.RateLimit;
import io.worldflow.spi.TaskQueue.WaitingTurn;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which waiting runs a queue admits now, decided from its stored state alone (so every worker decides alike, and the
 * write that records the decision compares and sets the state it was made from). Runs are taken in the order the queue
 * lists them (priority, then submission); a run whose start time has not come is passed over; the queue's concurrency
 * stops the round; a key at its limit is passed over, and so are that key's later runs, so that a key's runs start in
 * order; the rate limit admits one run per interval, with a little slack so that a round that comes late does not
 * lose its turn.
 */
final class Admission {

    /** How far behind its schedule a rate limit may fall and still catch up: a late round does not cost starts. */
    static final Duration SLACK = Duration.ofMillis(25);

    private Admission() {}

    /**
     * @param admit   the runs to move to their queue now (newly admitted, and admitted before but still waiting)
     * @param next    the state to store, or null when it is unchanged
     * @param retryAt when a run held back by the rate limit alone may start, or null
     */
    record Decision(List<String> admit, QueueBody next, Instant retryAt) {}

    /**
     * How many runs the queue could admit now at most, whatever their keys: its free places and, under a rate limit,
     * the starts it may make now. A round that finds none reads no waiting runs.
     */
    static int room(QueueBody body, Collection<String> ended, Instant now) {
        QueueSpec spec = body.spec();
        int held = 0;
        for (QueueBody.Place p : body.admitted()) {
            if (!ended.contains(p.run())) {
                held++;
            }
        }
        int free = Math.max(0, limit(spec) - held);
        RateLimit rate = spec.rateLimit();
        if (rate == null || free == 0) {
            return free;
        }
        Instant base = rateBase(body, now);
        if (base.isAfter(now)) {
            return 0;
        }
        long starts = Duration.between(base, now).dividedBy(rate.interval()) + 1;
        return (int) Math.min(free, starts);
    }

    /** The most runs the queue holds at once. */
    private static int limit(QueueSpec spec) {
        return spec.concurrency() > 0 ? spec.concurrency() : QueueSpec.MAX_CONCURRENCY;
    }

    /** When the next start under the rate limit is due: its stored time, or no earlier than {@link #SLACK} ago. */
    private static Instant rateBase(QueueBody body, Instant now) {
        Instant earliest = now.minus(SLACK);
        return body.nextStart() == null || body.nextStart().isBefore(earliest) ? earliest : body.nextStart();
    }

    /** When the rate limit lets the next run start: the queue's next start, or null when it may start now or has none. */
    static Instant nextStart(QueueBody body, Instant now) {
        return body.spec().rateLimit() != null
                        && body.nextStart() != null
                        && body.nextStart().isAfter(now)
                ? body.nextStart()
                : null;
    }

    static Decision decide(QueueBody body, List<WaitingTurn> waiting, Collection<String> ended, Instant now) {
        QueueSpec spec = body.spec();
        Set<String> gone = new HashSet<>(ended);
        List<QueueBody.Place> places = new ArrayList<>();
        Map<String, Integer> perKey = new HashMap<>();
        Set<String> admittedIds = new HashSet<>();
        for (QueueBody.Place p : body.admitted()) {
            if (!gone.contains(p.run())) {
                places.add(p);
                admittedIds.add(p.run());
                if (p.key() != null) {
                    perKey.merge(p.key(), 1, Integer::sum);
                }
            }
        }
        boolean changed = places.size() != body.admitted().size();
        RateLimit rate = spec.rateLimit();
        Instant nextStart = body.nextStart();
        Instant base = rate == null ? null : rateBase(body, now);
        int limit = limit(spec);
        Set<String> blockedKeys = new HashSet<>();
        Set<String> admit = new LinkedHashSet<>();
        Instant retryAt = null;
        int newly = 0;
        for (WaitingTurn w : waiting) {
            if (admittedIds.contains(w.runId())) {
                admit.add(w.runId()); // admitted by an earlier round whose move did not happen
                continue;
            }
            if (w.availableAt().isAfter(now) || gone.contains(w.runId())) {
                continue;
            }
            if (places.size() >= limit) {
                break;
            }
            String key = w.key();
            if (key != null) {
                if (blockedKeys.contains(key) || perKey.getOrDefault(key, 0) >= spec.keyConcurrency()) {
                    blockedKeys.add(key);
                    continue;
                }
            }
            if (base != null) {
                if (base.isAfter(now)) {
                    retryAt = base;
                    break;
                }
                base = base.plus(rate.interval());
            }
            places.add(new QueueBody.Place(w.runId(), key, now));
            admittedIds.add(w.runId());
            if (key != null) {
                perKey.merge(key, 1, Integer::sum);
            }
            admit.add(w.runId());
            newly++;
        }
        if (newly > 0) {
            changed = true;
            if (base != null) {
                nextStart = base;
            }
        }
        QueueBody next = changed ? body.with(places, nextStart) : null;
        return new Decision(List.copyOf(admit), next, retryAt);
    }
}
