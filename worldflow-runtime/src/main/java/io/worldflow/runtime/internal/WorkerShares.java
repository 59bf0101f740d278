package io.worldflow.runtime.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many turns of each queue one worker may execute at once ({@link io.worldflow.QueueSpec#workerConcurrency()}), and
 * so what it may lease: the queues without such a limit together, as always, and each limited queue on its own, no more
 * than the room it has left. A queue at its limit is left out until one of its turns ends here.
 */
final class WorkerShares {

    /** A lease to ask for: up to {@code max} turns of {@code queues}. */
    record Ask(Set<String> queues, int max) {}

    private final QueueRunner limits;
    private final Set<String> served;

    WorkerShares(QueueRunner limits, Set<String> served) {
        this.limits = limits;
        this.served = Set.copyOf(served);
    }

    private int limit(String queue) {
        return limits == null ? 0 : limits.workerLimit(queue);
    }

    /** Whether any queue served has a limit per worker (the turns in flight must then be counted). */
    boolean any() {
        for (String q : served) {
            if (limit(q) > 0) {
                return true;
            }
        }
        return false;
    }

    /** The leases to ask for, for {@code want} turns at most, given the turns of each queue in flight here. */
    List<Ask> plan(int want, Map<String, Integer> inFlight) {
        Set<String> open = new LinkedHashSet<>();
        List<Ask> limited = new ArrayList<>();
        for (String q : served) {
            int cap = limit(q);
            if (cap <= 0) {
                open.add(q);
            } else if (cap > inFlight.getOrDefault(q, 0)) {
                limited.add(new Ask(Set.of(q), Math.min(want, cap - inFlight.getOrDefault(q, 0))));
            }
        }
        List<Ask> plan = new ArrayList<>();
        if (!open.isEmpty()) {
            plan.add(new Ask(open, want));
        }
        plan.addAll(limited);
        return plan;
    }

    /** The queues this worker may take a turn of now: for when to wake up next. */
    Set<String> open(Map<String, Integer> inFlight) {
        Set<String> open = new LinkedHashSet<>();
        for (String q : served) {
            int cap = limit(q);
            if (cap <= 0 || cap > inFlight.getOrDefault(q, 0)) {
                open.add(q);
            }
        }
        return open;
    }

    /** Whether a turn of {@code queue} may begin here now. */
    boolean mayBegin(String queue, Map<String, Integer> inFlight) {
        int cap = limit(queue);
        return cap <= 0 || cap > inFlight.getOrDefault(queue, 0);
    }
}
