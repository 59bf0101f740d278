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
 * lose its turn. A worker with free slots admits a rate-limited queue's runs a little ahead of their starts
 * ({@link Ahead}): each takes its place at once and starts at its own instant of the limit's schedule, so that how
 * long a round takes, which grows with the load on the world, does not move the starts.
 */
final class Admission {

    /** How far behind its schedule a rate limit may fall and still catch up: a late round does not cost starts. */
    static final Duration SLACK = Duration.ofMillis(25);

    private Admission() {}

    /**
     * How far ahead of its start a run of a rate-limited queue may be admitted, and how many such runs at most: the
     * slots free in the admitting worker, which holds each until its start.
     */
    record Ahead(Duration horizon, int room) {

        /** Runs are admitted only when they may start. */
        static final Ahead NONE = new Ahead(Duration.ZERO, 0);

        /** How far ahead runs are admitted now: not at all without room for them. */
        Duration reach() {
            return room > 0 ? horizon : Duration.ZERO;
        }

        /**
         * How long before the next start to look again: when a quarter of the horizon has passed, so that a round may
         * come three quarters of the horizon late before a start is missed.
         */
        Duration lead() {
            return reach().minus(reach().dividedBy(4));
        }
    }

    /**
     * @param admit   the runs to move to their queue now (newly admitted, and admitted before but still waiting)
     * @param later   those of them that are to start later, by when they start
     * @param next    the state to store, or null when it is unchanged
     * @param retryAt when to look again for runs held back by the rate limit alone, or null
     */
    record Decision(List<String> admit, Map<String, Instant> later, QueueBody next, Instant retryAt) {}

    /**
     * How many runs the queue could admit now at most, whatever their keys: its free places and, under a rate limit,
     * the starts it may make now. A round that finds none reads no waiting runs.
     */
    static int room(QueueBody body, Collection<String> ended, Instant now, Ahead ahead) {
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
        Instant until = now.plus(ahead.reach());
        if (base.isAfter(until)) {
            return 0;
        }
        long starts = Duration.between(base, until).dividedBy(rate.interval()) + 1;
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

    /**
     * When a run admitted to the queue may begin, its first turn delivered again before it began.
     *
     * @param start when it may begin (at once when not after now), or null for at once without a place under a rate
     *              limit
     * @param missed the start it missed, when it takes a new one
     * @param next  the state to store, or null when it is unchanged
     */
    record Restart(Instant start, Instant missed, QueueBody next) {

        static final Restart AT_ONCE = new Restart(null, null, null);
    }

    /**
     * A run's start when its first turn is delivered again before it began: its own start when that is still to come
     * (or only {@link #SLACK} past); when it has passed, the rate limit's next start, taken from the schedule as an
     * admission takes one, in place of the start it missed.
     */
    static Restart restart(QueueBody body, String runId, Instant now) {
        RateLimit rate = body.spec().rateLimit();
        List<QueueBody.Place> places = body.admitted();
        for (int i = 0; rate != null && i < places.size(); i++) {
            QueueBody.Place place = places.get(i);
            if (!place.run().equals(runId)) {
                continue;
            }
            if (!place.at().isBefore(now.minus(SLACK))) {
                return new Restart(place.at(), null, null);
            }
            Instant base = rateBase(body, now);
            Instant start = base.isAfter(now) ? base : now;
            List<QueueBody.Place> moved = new ArrayList<>(places);
            moved.set(i, new QueueBody.Place(runId, place.key(), start));
            return new Restart(start, place.at(), body.with(moved, base.plus(rate.interval())));
        }
        return Restart.AT_ONCE;
    }

    /**
     * When to look again for the rate limit's next start: at that start, or, admitting ahead, {@link Ahead#lead} before
     * it (so that a round admits a quarter of a horizon's runs, not one); null when it may start now or has none.
     */
    static Instant nextStart(QueueBody body, Instant now, Ahead ahead) {
        if (body.spec().rateLimit() == null || body.nextStart() == null) {
            return null;
        }
        return lookAgain(body.nextStart(), now, ahead);
    }

    private static Instant lookAgain(Instant start, Instant now, Ahead ahead) {
        Instant at = start.minus(ahead.lead());
        return at.isAfter(now) ? at : start.isAfter(now) ? start : null;
    }

    static Decision decide(
            QueueBody body, List<WaitingTurn> waiting, Collection<String> ended, Instant now, Ahead ahead) {
        QueueSpec spec = body.spec();
        Set<String> gone = new HashSet<>(ended);
        List<QueueBody.Place> places = new ArrayList<>();
        Map<String, Integer> perKey = new HashMap<>();
        Map<String, Instant> admittedIds = new HashMap<>();
        for (QueueBody.Place p : body.admitted()) {
            if (!gone.contains(p.run())) {
                places.add(p);
                admittedIds.put(p.run(), p.at());
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
        Instant until = now.plus(ahead.reach());
        int aheadLeft = ahead.room();
        Set<String> blockedKeys = new HashSet<>();
        Set<String> admit = new LinkedHashSet<>();
        Map<String, Instant> later = new HashMap<>();
        Instant retryAt = null;
        int newly = 0;
        for (WaitingTurn w : waiting) {
            if (admittedIds.containsKey(w.runId())) {
                // admitted by an earlier round whose move did not happen: it starts when that round said
                admit.add(w.runId());
                Instant start = admittedIds.get(w.runId());
                if (start != null && start.isAfter(now)) {
                    later.put(w.runId(), start);
                }
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
            Instant start = now;
            if (base != null) {
                if (base.isAfter(until) || (base.isAfter(now) && aheadLeft == 0)) {
                    retryAt = lookAgain(base, now, ahead);
                    break;
                }
                if (base.isAfter(now)) {
                    start = base;
                    later.put(w.runId(), start);
                    aheadLeft--;
                }
                base = base.plus(rate.interval());
            }
            places.add(new QueueBody.Place(w.runId(), key, start));
            admittedIds.put(w.runId(), start);
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
        return new Decision(List.copyOf(admit), Map.copyOf(later), next, retryAt);
    }
}
