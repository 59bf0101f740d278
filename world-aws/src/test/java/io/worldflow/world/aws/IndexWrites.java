package io.worldflow.world.aws;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Counts the writes each index partition key takes, as DynamoDB would make them: after every write request that
 * succeeds, each item it wrote is read back (consistently, by a client of its own) and its entry in each index of its
 * table compared with the one it had; an entry that changed is a write to the partition of its new key, and an entry
 * that moved or left is a write to the partition of its old one too. Requests are handled one at a time, so that each
 * item's image before a write is the one after the write before it.
 */
final class IndexWrites implements ExecutionInterceptor {

    /** One index of one table: its keys and what it projects (null for every attribute). */
    private record Index(String table, String name, String hash, String range, Set<String> projected) {

        /** The item's entry in this index: the attributes it holds; null when the item is not in it. */
        Map<String, AttributeValue> entry(Map<String, AttributeValue> item) {
            if (item == null || !item.containsKey(hash) || !item.containsKey(range)) {
                return null;
            }
            if (projected == null) {
                return item;
            }
            Map<String, AttributeValue> entry = new TreeMap<>();
            item.forEach((k, v) -> {
                if (projected.contains(k)) {
                    entry.put(k, v);
                }
            });
            return entry;
        }
    }

    /** Writes per partition key of one index. */
    record Partitions(String index, Map<String, Integer> writes) {

        int total() {
            return writes.values().stream().mapToInt(Integer::intValue).sum();
        }

        Map.Entry<String, Integer> hottest() {
            return writes.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(Map.entry("-", 0));
        }

        double hottestShare() {
            return total() == 0 ? 0 : (double) hottest().getValue() / total();
        }
    }

    private final DynamoDbClient reader;
    private final Map<String, List<String>> tableKeys = new HashMap<>();
    private final Map<String, List<Index>> indexes = new HashMap<>();
    private final Map<String, Map<String, AttributeValue>> images = new HashMap<>();
    private final Map<String, Map<String, Integer>> counts = new TreeMap<>();
    private boolean counting;

    /** @param reader a client of the same DynamoDB, without this interceptor; the caller closes it */
    IndexWrites(DynamoDbClient reader) {
        this.reader = reader;
    }

    /** Starts counting: writes before (tables made, a warm-up) only set the images. */
    synchronized void start() {
        counts.clear();
        counting = true;
    }

    /** Each index that took a write, by {@code <table>/<index>}. */
    synchronized List<Partitions> partitions() {
        List<Partitions> out = new ArrayList<>();
        counts.forEach((index, writes) -> out.add(new Partitions(index, Map.copyOf(writes))));
        return out;
    }

    @Override
    public synchronized void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        for (Written w : written(context.request())) {
            List<String> keys = keys(w.table());
            if (keys == null) {
                continue;
            }
            Map<String, AttributeValue> key = new HashMap<>();
            for (String k : keys) {
                key.put(k, w.key().get(k));
            }
            String id = w.table() + "/" + key;
            Map<String, AttributeValue> after = reader.getItem(
                            b -> b.tableName(w.table()).key(key).consistentRead(true))
                    .item();
            after = after == null || after.isEmpty() ? null : after;
            Map<String, AttributeValue> before = images.get(id);
            for (Index index : indexes.get(w.table())) {
                Map<String, AttributeValue> was = index.entry(before);
                Map<String, AttributeValue> is = index.entry(after);
                if (Objects.equals(was, is)) {
                    continue;
                }
                if (was != null
                        && (is == null
                                || !was.get(index.hash()).equals(is.get(index.hash()))
                                || !was.get(index.range()).equals(is.get(index.range())))) {
                    count(index, was.get(index.hash()));
                }
                if (is != null) {
                    count(index, is.get(index.hash()));
                }
            }
            if (after == null) {
                images.remove(id);
            } else {
                images.put(id, after);
            }
        }
    }

    private void count(Index index, AttributeValue hash) {
        if (counting) {
            String key = hash.s() != null ? hash.s() : String.valueOf(hash.n());
            counts.computeIfAbsent(index.table() + "/" + index.name(), k -> new TreeMap<>())
                    .merge(key.replace('\u001E', '#').replace('\u001F', '~'), 1, Integer::sum);
        }
    }

    /** An item a request wrote: its table, and its key (or the whole item, for a put). */
    private record Written(String table, Map<String, AttributeValue> key) {}

    private static List<Written> written(SdkRequest request) {
        List<Written> out = new ArrayList<>();
        switch (request) {
            case PutItemRequest put -> out.add(new Written(put.tableName(), put.item()));
            case UpdateItemRequest update -> out.add(new Written(update.tableName(), update.key()));
            case DeleteItemRequest delete -> out.add(new Written(delete.tableName(), delete.key()));
            case TransactWriteItemsRequest tx -> {
                for (TransactWriteItem item : tx.transactItems()) {
                    if (item.put() != null) {
                        out.add(new Written(item.put().tableName(), item.put().item()));
                    } else if (item.update() != null) {
                        out.add(new Written(
                                item.update().tableName(), item.update().key()));
                    } else if (item.delete() != null) {
                        out.add(new Written(
                                item.delete().tableName(), item.delete().key()));
                    }
                }
            }
            case BatchWriteItemRequest batch ->
                batch.requestItems().forEach((table, writes) -> {
                    for (WriteRequest w : writes) {
                        out.add(new Written(
                                table,
                                w.putRequest() != null
                                        ? w.putRequest().item()
                                        : w.deleteRequest().key()));
                    }
                });
            default -> {}
        }
        return out;
    }

    /** The table's key attributes, its indexes learnt with them; null for a table that is gone. */
    private List<String> keys(String table) {
        if (!tableKeys.containsKey(table)) {
            TableDescription t = reader.describeTable(b -> b.tableName(table)).table();
            tableKeys.put(
                    table,
                    t.keySchema().stream().map(KeySchemaElement::attributeName).toList());
            List<Index> list = new ArrayList<>();
            for (GlobalSecondaryIndexDescription gsi : t.globalSecondaryIndexes()) {
                String hash = key(gsi.keySchema(), KeyType.HASH);
                String range = key(gsi.keySchema(), KeyType.RANGE);
                Set<String> projected = null;
                if (gsi.projection().projectionType() != ProjectionType.ALL) {
                    projected = new TreeSet<>(tableKeys.get(table));
                    projected.add(hash);
                    projected.add(range);
                    if (gsi.projection().hasNonKeyAttributes()) {
                        projected.addAll(gsi.projection().nonKeyAttributes());
                    }
                }
                list.add(new Index(table, gsi.indexName(), hash, range, projected));
            }
            indexes.put(table, list);
        }
        return tableKeys.get(table);
    }

    private static String key(List<KeySchemaElement> schema, KeyType type) {
        return schema.stream()
                .filter(k -> k.keyType() == type)
                .map(KeySchemaElement::attributeName)
                .findFirst()
                .orElseThrow();
    }
}
