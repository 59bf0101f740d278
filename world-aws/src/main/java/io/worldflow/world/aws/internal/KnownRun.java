package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * What an append of a run needs of the run's item: the log's length and head, the turn, the search attributes (name to
 * stored value), the creation key the search items carry and the shard they are in, and whether a cancellation was
 * requested. Read from the item,
 * or kept by this process from its own last write ({@link HeldTurns}).
 *
 * @param head null when the run has no head (its records were written before the hash chain)
 */
record KnownRun(
        String runId,
        long length,
        byte[] head,
        TurnState turn,
        Map<String, String> search,
        String createdKey,
        int searchShard,
        boolean cancelRequested) {

    KnownRun {
        search = Map.copyOf(search);
    }

    static KnownRun of(Map<String, AttributeValue> item) {
        return new KnownRun(
                str(item, RunItem.ID),
                RunItem.length(item),
                RunItem.head(item),
                TurnState.of(item),
                SearchIndex.stored(item),
                str(item, RunItem.CREATED_KEY),
                SearchIndex.shard(item),
                RunItem.cancelRequested(item));
    }

    /**
     * The run after an append that left its log {@code length} long, with the head {@code link} (null: an append
     * without events, which leaves the head), the attributes {@code search} and the turn {@code turn}.
     */
    KnownRun after(long length, byte[] link, Map<String, String> search, TurnState turn) {
        return new KnownRun(
                runId, length, link == null ? head : link, turn, search, createdKey, searchShard, cancelRequested);
    }

    /** The run with its turn changed to {@code next} and nothing else. */
    KnownRun withTurn(TurnState next) {
        return new KnownRun(runId, length, head, next, search, createdKey, searchShard, cancelRequested);
    }
}
