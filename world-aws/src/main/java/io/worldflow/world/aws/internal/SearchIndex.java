package io.worldflow.world.aws.internal;

import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.SearchValues;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * A run's search attributes: its current ones on its item, as a map {@value #ATTRIBUTES} of name to stored value
 * ({@link SearchValues}), and one item each in the search table, keyed ({@value #RUN} = the run's id, {@value #KEY} =
 * {@code <name>=<stored value>}) with the run's {@value #CREATED_KEY}; the index {@link Tables#BY_VALUE} has a partition
 * per {@value #KEY} sorted by {@value #CREATED_KEY}, so a search finds the runs of one value newest first. A name has no
 * {@code =}, so the first one ends it, and a stored value begins with its type's tag, so a key is never empty and one
 * type's value never another's. A key is at most 835 bytes (a 64-character name, a string of 256 characters of up to 3
 * bytes each), below the 1,024 bytes of a sort key.
 *
 * <p>Both are written in the transaction that creates the run or applies the append that changes them (at most
 * {@link SearchAttributes#MAX_ATTRIBUTES} puts and as many deletes, well within a transaction with the largest
 * record): the search table holds exactly the attributes the run's items hold, and a refused append writes neither.
 * A search still checks each run it finds against its item ({@link #has}): DynamoDB fills an index after the write,
 * so it may show a value replaced a moment ago.
 */
final class SearchIndex {

    /** The run item's attribute: a map of name to stored value; absent when the run has none. */
    static final String ATTRIBUTES = "sa";

    static final String RUN = "run";
    static final String KEY = "av";
    static final String CREATED_KEY = RunItem.CREATED_KEY;

    /** Between a name and its stored value in {@value #KEY}: no name has one. */
    static final char SEPARATOR = '=';

    private SearchIndex() {}

    /**
     * The index key of the attribute {@code name} of stored value {@code stored} in shard {@code shard} ({@link
     * Shards}): the shard goes after the name, which has neither {@code =} nor the shards' separator, so no value can
     * make one shard's key equal another's.
     */
    static String key(String name, String stored, int shard) {
        if (stored == null || stored.isEmpty()) {
            throw new IllegalArgumentException("search attribute '" + name + "' has no stored value");
        }
        return (shard == 0 ? name : name + Shards.SEPARATOR + shard) + SEPARATOR + stored;
    }

    /** The index key of the attribute in every shard, the partitions a search reads. */
    static List<String> keys(String name, String stored, Shards shards) {
        List<String> out = new ArrayList<>(shards.count());
        for (int shard = 0; shard < shards.count(); shard++) {
            out.add(key(name, stored, shard));
        }
        return out;
    }

    /** The shard the run's search items are in: the one it was created in. */
    static int shard(Map<String, AttributeValue> item) {
        return (int) num(item, RunItem.SHARD, 0);
    }

    /** The attributes as the run's item holds them (name to stored value), or null for none. */
    static AttributeValue itemValue(Map<String, String> stored) {
        if (stored.isEmpty()) {
            return null;
        }
        Map<String, AttributeValue> m = new TreeMap<>();
        stored.forEach((name, value) -> m.put(name, s(value)));
        return AttributeValue.fromM(m);
    }

    /** The run's current attributes as its item holds them: name to stored value, in name order. */
    static Map<String, String> stored(Map<String, AttributeValue> item) {
        AttributeValue v = item.get(ATTRIBUTES);
        Map<String, String> out = new TreeMap<>();
        if (v != null && v.hasM()) {
            v.m().forEach((name, value) -> out.put(name, value.s()));
        }
        return out;
    }

    /** The run's current attributes, read from its item. */
    static SearchAttributes of(Map<String, AttributeValue> item) {
        Map<String, String> stored = stored(item);
        try {
            return SearchValues.decode(stored);
        } catch (IllegalArgumentException e) {
            throw new WorldException(
                    "AWS world: run " + str(item, RunItem.ID) + " has search attributes that cannot be read: " + stored,
                    false,
                    e);
        }
    }

    /** Whether the run's item has each of {@code wanted} (name to stored value), of the same stored value. */
    static boolean has(Map<String, AttributeValue> item, Map<String, String> wanted) {
        if (wanted.isEmpty()) {
            return true;
        }
        Map<String, String> current = stored(item);
        for (Map.Entry<String, String> w : wanted.entrySet()) {
            if (!w.getValue().equals(current.get(w.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The index items of a new run, to put in the transaction that creates it. */
    static List<TransactWriteItem> created(String table, NewRun run, Shards shards) {
        String ck = Attrs.timeKey(Attrs.micros(run.createdAt()), run.runId());
        int shard = shards.of(run.runId());
        List<TransactWriteItem> out = new ArrayList<>();
        SearchValues.encode(run.searchAttributes())
                .forEach((name, value) -> out.add(put(table, run.runId(), ck, key(name, value, shard))));
        return out;
    }

    private static TransactWriteItem put(String table, String runId, String ck, String key) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(RUN, s(runId));
        item.put(KEY, s(key));
        item.put(CREATED_KEY, s(ck));
        return TransactWriteItem.builder()
                .put(Put.builder().tableName(table).item(item).build())
                .build();
    }

    private static TransactWriteItem delete(String table, String runId, String key) {
        return TransactWriteItem.builder()
                .delete(Delete.builder()
                        .tableName(table)
                        .key(Map.of(RUN, s(runId), KEY, s(key)))
                        .build())
                .build();
    }

    /**
     * The most index items an append of these events writes (a put and a delete per attribute it changes), counted
     * before the run is read.
     */
    static int mostItems(List<Event> events) {
        return 2 * SearchValues.changes(events).size();
    }

    /**
     * What an append's events do to the attributes of the run whose item is {@code item}.
     *
     * @throws IllegalArgumentException when a change names no attribute, stores no value, or would leave the run more
     *                                  than {@link SearchAttributes#MAX_ATTRIBUTES}
     */
    static Change change(Map<String, AttributeValue> item, List<Event> events) {
        return change(str(item, RunItem.ID), stored(item), shard(item), events);
    }

    /**
     * What an append's events do to the attributes {@code before} (name to stored value) of run {@code runId}, whose
     * search items are in shard {@code shard}.
     */
    static Change change(String runId, Map<String, String> before, int shard, List<Event> events) {
        Map<String, String> changes = SearchValues.changes(events);
        if (changes.isEmpty()) {
            return new Change(before, before, shard);
        }
        Map<String, String> after = new TreeMap<>(before);
        changes.forEach((name, value) -> {
            SearchKey.checkName(name);
            if (value == null) {
                after.remove(name);
            } else {
                SearchValues.decode(value); // rejects what is not a stored value
                after.put(name, value);
            }
        });
        if (after.size() > SearchAttributes.MAX_ATTRIBUTES) {
            throw new IllegalArgumentException("an append to run " + runId + " would leave it " + after.size()
                    + " search attributes; a run carries at most " + SearchAttributes.MAX_ATTRIBUTES);
        }
        return new Change(before, after, shard);
    }

    /** A run's attributes before and after an append (name to stored value), and the shard its items are in. */
    record Change(Map<String, String> before, Map<String, String> after, int shard) {

        boolean changes() {
            return !before.equals(after);
        }

        /**
         * The index items to write in the append's transaction: a delete of each value the append removes or
         * replaces, a put of each value it sets anew.
         */
        List<TransactWriteItem> items(String table, String runId, String ck) {
            List<TransactWriteItem> out = new ArrayList<>();
            before.forEach((name, value) -> {
                if (!value.equals(after.get(name))) {
                    out.add(delete(table, runId, key(name, value, shard)));
                }
            });
            after.forEach((name, value) -> {
                if (!Objects.equals(value, before.get(name))) {
                    out.add(put(table, runId, ck, key(name, value, shard)));
                }
            });
            return out;
        }
    }
}
