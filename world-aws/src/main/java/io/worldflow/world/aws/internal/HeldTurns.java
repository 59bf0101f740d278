package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runs whose turns this process holds, each as its last write under the lease left the run's item (the lease, an
 * append, a heartbeat), so that the next append or heartbeat of the turn is written without reading the item first;
 * and the items the leases returned, until the worker loads those runs.
 *
 * <p>What is kept is a guess, never the truth: a write made from it carries every condition a write made from a fresh
 * read carries (the log's length, the turn's version, the head) and, when it knows of no cancellation, that there is
 * none. Every change of those goes through them (a turn changes only with its version), the search attributes change
 * only with the length, and the creation key never. So a write from a guess that is out of date fails and writes
 * nothing; the writer forgets the guess and reads the item. A turn that ends, is handed back or is changed by this
 * process otherwise forgets its run. At most {@value #MAX_RUNS} runs and {@value #MAX_ITEMS} items are kept, the least
 * recently used leaving first (a lease lost mid-turn leaves its run here until then).
 */
final class HeldTurns {

    static final int MAX_RUNS = 10_000;
    static final int MAX_ITEMS = 1_000;

    private final Map<String, KnownRun> runs = lru(MAX_RUNS);
    /** Items read by a lease, with the state they were kept as: loaded from while that state is still the one kept. */
    private final Map<String, Leased> items = lru(MAX_ITEMS);

    private record Leased(KnownRun state, Map<String, AttributeValue> item) {}

    private static <V> Map<String, V> lru(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > max;
            }
        };
    }

    /** The run as this process last left it under a lease it holds, or null. */
    synchronized KnownRun get(String runId) {
        return runs.get(runId);
    }

    /** A lease (or a write that leased a new run) left the run's item as {@code item}. */
    synchronized void leased(Map<String, AttributeValue> item, boolean forLoading) {
        KnownRun state = KnownRun.of(item);
        runs.put(state.runId(), state);
        if (forLoading) {
            items.put(state.runId(), new Leased(state, item));
        } else {
            items.remove(state.runId());
        }
    }

    /**
     * The item the run's lease returned, once, while nothing this process wrote has changed the run since; else null.
     */
    synchronized Map<String, AttributeValue> takeLeasedItem(String runId) {
        Leased leased = items.remove(runId);
        return leased != null && leased.state() == runs.get(runId) ? leased.item() : null;
    }

    /** A write of this process left the run as {@code state}: kept while the turn is leased, else forgotten. */
    synchronized void wrote(KnownRun state) {
        items.remove(state.runId());
        if (state.turn().isLeased()) {
            runs.put(state.runId(), state);
        } else {
            runs.remove(state.runId());
        }
    }

    /**
     * A write of this process changed only the run's turn, from {@code from} to {@code to}: kept when the run is still
     * kept with {@code from}, else forgotten.
     */
    synchronized void turnChanged(String runId, TurnState from, TurnState to) {
        KnownRun state = runs.get(runId);
        if (state != null && state.turn().equals(from)) {
            wrote(state.withTurn(to));
        } else {
            forget(runId);
        }
    }

    /** Nothing is known of the run any more: the next write reads its item. */
    synchronized void forget(String runId) {
        runs.remove(runId);
        items.remove(runId);
    }
}
