package io.worldflow.world.aws.internal;

import io.worldflow.spi.NewRun;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * The order of the runs of one ordering key waiting in one queue, kept whatever the {@code byWaiting} index shows. On
 * AWS that index is eventually consistent: it may list a run before one of the same key created just ahead of it, and
 * the queue would admit the later run first. So each waiting run created with a key stores the run created with that
 * key just before it ({@value RunItem#PREV}), read from a small item of the key's (its link, in the runs table) that
 * the run's creation moves on to the new run in the same transaction; {@link #listed} then holds back a key whose
 * earlier run waits but is not shown yet.
 *
 * <p>A link is one item of a few bytes per key and queue, read only by the creation of a run with that key; it goes
 * when the run it names is purged ({@link #forget}).
 */
final class KeyOrder {

    /** The link's attribute naming the run last created with its key. */
    static final String LAST = "last";

    private final Store store;

    KeyOrder(Store store) {
        this.store = store;
    }

    /** Whether the run's creation goes through its key's link: a run waiting to be admitted, with a key. */
    static boolean chained(NewRun run) {
        return run.waits() && run.key() != null;
    }

    /**
     * The id of the link of {@code key} in {@code queue}, the runs' own queue: it starts with a control character,
     * which no run id has, and no queue name, so the first one after it ends the queue's name.
     */
    static String linkId(String queue, String key) {
        return "\u001forder\u001f" + queue + "\u001f" + key;
    }

    /** The run last created with the run's key in its queue, read consistently, or null for none. */
    String last(NewRun run) {
        Map<String, AttributeValue> link = store.runsItem(
                linkId(run.queue(), run.key()),
                "reading the run last created with key " + run.key() + " in queue " + run.queue());
        return link == null ? null : str(link, LAST);
    }

    /** Moves the run's key's link from {@code prev} (null: no link yet) on to the run, or cancels the transaction. */
    TransactWriteItem link(NewRun run, String prev) {
        Update u =
                new Update(store.tables.runs(), RunItem.key(linkId(run.queue(), run.key()))).set(LAST, s(run.runId()));
        if (prev == null) {
            u.when("attribute_not_exists(#" + RunItem.ID + ")");
        } else {
            u.when("#" + LAST + " = ?", s(prev));
        }
        return u.transactItem();
    }

    /**
     * Deletes the link of a finished run's key, about to be purged, while the link still names it: the next run of the
     * key then names none, and nothing of the key outlives its runs. A link moved on to a later run stays.
     */
    void forget(Map<String, AttributeValue> item) {
        String key = str(item, RunItem.ORDER_KEY);
        if (key == null) {
            return;
        }
        String runId = str(item, RunItem.ID);
        try {
            AwsFailures.call(
                    "deleting the ordering key's link of run " + runId,
                    () -> store.dynamo.deleteItem(b -> b.tableName(store.tables.runs())
                            .key(RunItem.key(linkId(str(item, RunItem.QUEUE), key)))
                            .conditionExpression("#l = :l")
                            .expressionAttributeNames(Map.of("#l", LAST))
                            .expressionAttributeValues(Map.of(":l", s(runId)))));
        } catch (ConditionalCheckFailedException e) {
            // a later run of the key holds the link, or it is gone already
        }
    }

    /**
     * The waiting turns of {@code queue} as read ({@code items}, in leasing order), without the runs of a key from the
     * first one whose earlier run of that key waits in the queue ahead of it but is not among them: the index has not
     * caught up with that run yet, and the key's runs are listed once it has. An earlier run no longer waiting there
     * (admitted, ended, moved) or behind the run in leasing order (a lower priority) holds nothing back.
     */
    List<Map<String, AttributeValue>> listed(String queue, List<Map<String, AttributeValue>> items, String what) {
        Set<String> shown = new HashSet<>();
        List<String> unseen = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            shown.add(str(item, RunItem.ID));
        }
        for (Map<String, AttributeValue> item : items) {
            String prev = str(item, RunItem.PREV);
            if (prev != null && !shown.contains(prev)) {
                unseen.add(prev);
            }
        }
        if (unseen.isEmpty()) {
            return items;
        }
        Map<String, Map<String, AttributeValue>> earlier = new HashMap<>();
        for (Map<String, AttributeValue> item : store.items(store.tables.runs(), RunItem.ID, unseen, what)) {
            earlier.put(str(item, RunItem.ID), item);
        }
        Set<String> heldBack = new HashSet<>();
        List<Map<String, AttributeValue>> out = new ArrayList<>(items.size());
        for (Map<String, AttributeValue> item : items) {
            String key = str(item, RunItem.ORDER_KEY);
            if (key != null && !heldBack.contains(key)) {
                Map<String, AttributeValue> prev = earlier.get(str(item, RunItem.PREV));
                if (prev != null && waitsAhead(prev, item, queue)) {
                    heldBack.add(key);
                }
            }
            if (key == null || !heldBack.contains(key)) {
                out.add(item);
            }
        }
        return out;
    }

    /** Whether {@code prev}'s turn is pending in {@code queue} ahead of {@code item}'s in leasing order. */
    private static boolean waitsAhead(
            Map<String, AttributeValue> prev, Map<String, AttributeValue> item, String queue) {
        String prevKey = str(prev, TurnState.WAIT_KEY);
        return prevKey != null
                && queue.equals(Shards.plain(str(prev, TurnState.QUEUE)))
                && prevKey.compareTo(str(item, TurnState.WAIT_KEY)) < 0;
    }
}
