package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * A query of an index that holds keys only, answered with the items behind its entries, in the index's order. The items
 * are read from the table ({@code BatchGetItem}, consistent), because an index read is eventually consistent on AWS: an
 * entry is kept only when its item still has the entry's index keys, so what the index has not caught up with yet drops
 * out (an item deleted, or one moved to another place in the index, where it shows once the index has it).
 *
 * @param table     the table
 * @param id        the table's key attribute
 * @param index     the index
 * @param keys      the index's key attributes
 * @param condition the key condition, its attribute names and values through {@code names} and {@code values}
 */
record IndexQuery(
        String table,
        String id,
        String index,
        List<String> keys,
        String condition,
        Map<String, String> names,
        Map<String, AttributeValue> values) {

    /** Index entries read per query: one consistent {@code BatchGetItem} of the items behind them. */
    private static final int PAGE = 100;

    /**
     * Up to {@code limit} current items of every shard of the partition key bound to {@code placeholder} ({@link
     * Shards}), merged in the index's order ({@code sortKey} ascending): the first {@code limit} of each shard, so
     * that the merge misses none of the first {@code limit} of all.
     */
    List<Map<String, AttributeValue>> readShards(
            Store store, String placeholder, String sortKey, int limit, String what) {
        List<String> keys = store.shards.keys(values.get(placeholder).s());
        if (keys.size() == 1) {
            return read(store, limit, what);
        }
        List<Map<String, AttributeValue>> all = new ArrayList<>();
        for (List<Map<String, AttributeValue>> shard : Store.readAtOnce(
                keys,
                key -> {
                    Map<String, AttributeValue> shardValues = new HashMap<>(values);
                    shardValues.put(placeholder, AttributeValue.fromS(key));
                    return new IndexQuery(table, id, index, this.keys, condition, names, shardValues)
                            .read(store, limit, what);
                },
                what)) {
            all.addAll(shard);
        }
        all.sort(Comparator.comparing(item -> str(item, sortKey)));
        return all.size() <= limit ? all : all.subList(0, limit);
    }

    /** Up to {@code limit} current items, page by page until enough are found or the index has no more. */
    List<Map<String, AttributeValue>> read(Store store, int limit, String what) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            int pageSize = Math.min(PAGE, limit - out.size());
            QueryResponse page = AwsFailures.call(
                    what,
                    () -> store.dynamo.query(b -> b.tableName(table)
                            .indexName(index)
                            .keyConditionExpression(condition)
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values)
                            .exclusiveStartKey(exclusiveStart)
                            .limit(pageSize)));
            List<String> ids = page.items().stream().map(e -> str(e, id)).toList();
            Map<String, Map<String, AttributeValue>> current = new HashMap<>();
            for (Map<String, AttributeValue> item : store.items(table, id, ids, what)) {
                current.put(str(item, id), item);
            }
            for (Map<String, AttributeValue> entry : page.items()) {
                Map<String, AttributeValue> item = current.get(str(entry, id));
                if (item != null && keys.stream().allMatch(k -> Objects.equals(str(item, k), str(entry, k)))) {
                    out.add(item);
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && out.size() < limit);
        return out;
    }
}
