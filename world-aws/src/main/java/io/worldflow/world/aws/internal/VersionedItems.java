package io.worldflow.world.aws.internal;

import io.worldflow.world.aws.PayloadTooLargeException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * Records the runtime writes whole and the world does not read, schedules and queues: one item each in a table of their
 * own, keyed by {@code id}, written whole by a conditional {@code PutItem} ({@code attribute_not_exists} to create, the
 * previous version to replace).
 *
 * <p>DynamoDB orders nothing across partition keys, so the orders come from indexes whose partition key is one constant
 * ({@code all}, the noun): {@code byId} sorted by the id, for {@link #list}, and in the schedules table {@code byWake}
 * sorted by {@code wk} = {@code <wakeAt µs>:<id>}, for {@link #due}; {@code wk} is left out while a record has no wake
 * time, so the index never holds those. The indexes hold keys only: a body of up to {@value #MAX_BODY_BYTES} bytes
 * would otherwise be written twice more at every write, and the records behind a page of an index are read in full
 * from the table anyway ({@link IndexQuery}).
 */
final class VersionedItems {

    static final String ID = "id";
    static final String ALL = "all";
    static final String WAKE_KEY = "wk";
    static final String WAKE_AT = "wAt";
    static final String BODY = "body";
    static final String VERSION = "ver";
    static final String UPDATED = "uAt";

    /**
     * Bytes of a record's body, at most: with its id twice (the key and {@code wk}) and the other attributes it stays
     * below DynamoDB's 400 KB item limit.
     */
    static final int MAX_BODY_BYTES = 384 * 1024;

    /** A record: its id, the runtime's text, its wake time (null for none, or in a table without one), version, time. */
    record Stored(String id, String body, Instant wakeAt, long version, Instant updatedAt) {}

    private final Store store;
    private final String table;
    private final String noun;

    /**
     * @param table the table
     * @param noun  what a record is, for messages; also the value of {@code all}, the indexes' partition key
     */
    VersionedItems(Store store, String table, String noun) {
        this.store = store;
        this.table = table;
        this.noun = noun;
    }

    /** A new record, which must be at version 1; false when the id exists. */
    boolean create(Stored record) {
        if (record.version() != 1) {
            throw new IllegalArgumentException("a " + noun + " is created at version 1, was version " + record.version()
                    + " (" + noun + " '" + record.id() + "')");
        }
        return put(
                record,
                "creating " + noun + " " + record.id(),
                "attribute_not_exists(#id)",
                Map.of("#id", ID),
                Map.of());
    }

    /** The record at its version, when it is stored at the version before. */
    boolean replace(Stored record) {
        // a comparison with an attribute the item lacks is false, so a record that does not exist fails it too
        return put(
                record,
                "replacing " + noun + " " + record.id(),
                "#v = :v",
                Map.of("#v", VERSION),
                Map.of(":v", n(record.version() - 1)));
    }

    /** Writes the whole item under {@code condition}; false when the condition does not hold, nothing written. */
    private boolean put(
            Stored record,
            String what,
            String condition,
            Map<String, String> names,
            Map<String, AttributeValue> values) {
        int size = record.body().getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_BODY_BYTES) {
            throw new PayloadTooLargeException("the body of " + noun + " '" + record.id() + "'", size, MAX_BODY_BYTES);
        }
        PutItemRequest request = PutItemRequest.builder()
                .tableName(table)
                .item(item(record))
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values.isEmpty() ? null : values)
                .build();
        try {
            AwsFailures.call(what, () -> store.dynamo.putItem(request));
            return true;
        } catch (ConditionalCheckFailedException taken) {
            return false;
        }
    }

    boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        Map<String, AttributeValue> old = AwsFailures.call(
                "deleting " + noun + " " + id,
                () -> store.dynamo
                        .deleteItem(b -> b.tableName(table).key(key(id)).returnValues(ReturnValue.ALL_OLD))
                        .attributes());
        return old != null && !old.isEmpty();
    }

    Optional<Stored> get(String id) {
        Objects.requireNonNull(id, "id");
        Map<String, AttributeValue> item = AwsFailures.call(
                "reading " + noun + " " + id,
                () -> store.dynamo
                        .getItem(b -> b.tableName(table).key(key(id)).consistentRead(true))
                        .item());
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(stored(item));
    }

    /** Records in id order, after {@code afterId} (null from the first), at most {@code limit}. */
    List<Stored> list(String afterId, int limit) {
        String what = "listing " + noun + "s";
        if (afterId == null) {
            return read(Tables.BY_ID, ID, "#a = :a", Map.of("#a", ALL), Map.of(":a", s(noun)), limit, what);
        }
        return read(
                Tables.BY_ID,
                ID,
                "#a = :a AND #k > :k",
                Map.of("#a", ALL, "#k", ID),
                Map.of(":a", s(noun), ":k", s(afterId)),
                limit,
                what);
    }

    /** Records whose wake time is at or before {@code until}, earliest first (then by id), at most {@code limit}. */
    List<Stored> due(Instant until, int limit) {
        // ';' sorts after ':', so the bound takes every id at until's microsecond
        return read(
                Tables.BY_WAKE,
                WAKE_KEY,
                "#a = :a AND #k <= :k",
                Map.of("#a", ALL, "#k", WAKE_KEY),
                Map.of(":a", s(noun), ":k", s(Attrs.pad(micros(until)) + ";")),
                limit,
                "reading the due " + noun + "s");
    }

    private List<Stored> read(
            String index,
            String sortKey,
            String condition,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            int limit,
            String what) {
        IndexQuery query = new IndexQuery(table, ID, index, List.of(ALL, sortKey), condition, names, values);
        return query.readShards(store, ":a", sortKey, limit, what).stream()
                .map(VersionedItems::stored)
                .toList();
    }

    private static Map<String, AttributeValue> key(String id) {
        return Map.of(ID, s(id));
    }

    /** The whole item of a record; without a wake time it has no {@code wk}, and so no entry in {@code byWake}. */
    private Map<String, AttributeValue> item(Stored record) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(ID, s(record.id()));
        item.put(ALL, s(store.shards.key(noun, record.id())));
        item.put(BODY, s(record.body()));
        item.put(VERSION, n(record.version()));
        item.put(UPDATED, n(micros(record.updatedAt())));
        if (record.wakeAt() != null) {
            long wake = micros(record.wakeAt());
            item.put(WAKE_AT, n(wake));
            item.put(WAKE_KEY, s(Attrs.timeKey(wake, record.id())));
        }
        return item;
    }

    private static Stored stored(Map<String, AttributeValue> item) {
        return new Stored(
                str(item, ID),
                str(item, BODY),
                Attrs.instant(item, WAKE_AT),
                num(item, VERSION, 1),
                Attrs.instant(item, UPDATED));
    }
}
