package io.worldflow.world.aws.internal;

import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredSchedule;
import io.worldflow.world.aws.PayloadTooLargeException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
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
 * Schedules: one item per schedule in the schedules table, keyed by id, written whole by a conditional
 * {@code PutItem} ({@code attribute_not_exists} to create, the previous version to replace).
 *
 * <p>DynamoDB orders nothing across partition keys, so both orders come from an index whose partition key is one
 * constant ({@code all}): {@code byId} sorted by the id, for {@link #list}, and {@code byWake} sorted by {@code wk} =
 * {@code <wakeAt µs>:<id>}, for {@link #due}; {@code wk} is left out while the schedule has no wake time, so the
 * index never holds those. The indexes hold keys only: a body of up to {@value #MAX_BODY_BYTES} bytes would
 * otherwise be written twice more at every fire, and an index read is eventually consistent on AWS. The schedules
 * behind a page of the index are read in full from the table ({@code BatchGetItem}, consistent), which also drops
 * what the index has not caught up with yet: a deleted schedule, and one whose wake time moved (it shows in its new
 * place once the index has it, at the latest on the next call), so a page is always in the index's order.
 */
final class DynamoSchedules implements ScheduleStore {

    static final String ID = "id";
    static final String ALL = "all";
    static final String ALL_VALUE = "schedule";
    static final String WAKE_KEY = "wk";
    static final String WAKE_AT = "wAt";
    static final String BODY = "body";
    static final String VERSION = "ver";
    static final String UPDATED = "uAt";

    /**
     * Bytes of a schedule's body, at most: with its id twice (the key and {@code wk}) and the other attributes it
     * stays below DynamoDB's 400 KB item limit.
     */
    static final int MAX_BODY_BYTES = 384 * 1024;

    /** Index entries read per query: one consistent {@code BatchGetItem} of the schedules behind them. */
    private static final int PAGE = 100;

    private static final String LISTING = "listing schedules";

    private final Store store;

    DynamoSchedules(Store store) {
        this.store = store;
    }

    @Override
    public boolean create(StoredSchedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        if (schedule.version() != 1) {
            throw new IllegalArgumentException("a schedule is created at version 1, was version " + schedule.version()
                    + " (schedule '" + schedule.id() + "')");
        }
        return put(
                schedule,
                "creating schedule " + schedule.id(),
                "attribute_not_exists(#id)",
                Map.of("#id", ID),
                Map.of());
    }

    @Override
    public boolean replace(StoredSchedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        // a comparison with an attribute the item lacks is false, so a schedule that does not exist fails it too
        return put(
                schedule,
                "replacing schedule " + schedule.id(),
                "#v = :v",
                Map.of("#v", VERSION),
                Map.of(":v", n(schedule.version() - 1)));
    }

    /** Writes the whole item under {@code condition}; false when the condition does not hold, nothing written. */
    private boolean put(
            StoredSchedule schedule,
            String what,
            String condition,
            Map<String, String> names,
            Map<String, AttributeValue> values) {
        int size = schedule.body().getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_BODY_BYTES) {
            throw new PayloadTooLargeException("the body of schedule '" + schedule.id() + "'", size, MAX_BODY_BYTES);
        }
        PutItemRequest request = PutItemRequest.builder()
                .tableName(store.tables.schedules())
                .item(item(schedule))
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

    @Override
    public boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        Map<String, AttributeValue> old = AwsFailures.call(
                "deleting schedule " + id,
                () -> store.dynamo
                        .deleteItem(b -> b.tableName(store.tables.schedules())
                                .key(key(id))
                                .returnValues(ReturnValue.ALL_OLD))
                        .attributes());
        return old != null && !old.isEmpty();
    }

    @Override
    public Optional<StoredSchedule> get(String id) {
        Objects.requireNonNull(id, "id");
        Map<String, AttributeValue> item = AwsFailures.call(
                "reading schedule " + id,
                () -> store.dynamo
                        .getItem(b -> b.tableName(store.tables.schedules())
                                .key(key(id))
                                .consistentRead(true))
                        .item());
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(schedule(item));
    }

    @Override
    public List<StoredSchedule> list(String afterId, int limit) {
        ScheduleStore.checkLimit(limit);
        if (afterId == null) {
            return read(Tables.BY_ID, ID, "#a = :a", Map.of("#a", ALL), Map.of(":a", s(ALL_VALUE)), limit, LISTING);
        }
        return read(
                Tables.BY_ID,
                ID,
                "#a = :a AND #k > :k",
                Map.of("#a", ALL, "#k", ID),
                Map.of(":a", s(ALL_VALUE), ":k", s(afterId)),
                limit,
                LISTING);
    }

    @Override
    public List<StoredSchedule> due(Instant until, int limit) {
        Objects.requireNonNull(until, "until");
        ScheduleStore.checkLimit(limit);
        // ';' sorts after ':', so the bound takes every id at until's microsecond
        return read(
                Tables.BY_WAKE,
                WAKE_KEY,
                "#a = :a AND #k <= :k",
                Map.of("#a", ALL, "#k", WAKE_KEY),
                Map.of(":a", s(ALL_VALUE), ":k", s(Attrs.pad(micros(until)) + ";")),
                limit,
                "reading the due schedules");
    }

    /**
     * Up to {@code limit} schedules in the order of the index, paged: each page of keys is read from the table, and
     * an entry is kept when its schedule still exists with the same sort key ({@code sortKey}) as in the index.
     */
    private List<StoredSchedule> read(
            String index,
            String sortKey,
            String condition,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            int limit,
            String what) {
        List<StoredSchedule> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            int pageSize = Math.min(PAGE, limit - out.size());
            QueryResponse page = AwsFailures.call(
                    what,
                    () -> store.dynamo.query(b -> b.tableName(store.tables.schedules())
                            .indexName(index)
                            .keyConditionExpression(condition)
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values)
                            .exclusiveStartKey(exclusiveStart)
                            .limit(pageSize)));
            List<String> ids = page.items().stream().map(e -> str(e, ID)).toList();
            Map<String, Map<String, AttributeValue>> current = new HashMap<>();
            for (Map<String, AttributeValue> item : store.items(store.tables.schedules(), ID, ids, what)) {
                current.put(str(item, ID), item);
            }
            for (Map<String, AttributeValue> entry : page.items()) {
                Map<String, AttributeValue> item = current.get(str(entry, ID));
                if (item != null && Objects.equals(str(item, sortKey), str(entry, sortKey))) {
                    out.add(schedule(item));
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && out.size() < limit);
        return out;
    }

    private static Map<String, AttributeValue> key(String id) {
        return Map.of(ID, s(id));
    }

    /** The whole item of a schedule; without a wake time it has no {@code wk}, and so no entry in {@code byWake}. */
    private static Map<String, AttributeValue> item(StoredSchedule schedule) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(ID, s(schedule.id()));
        item.put(ALL, s(ALL_VALUE));
        item.put(BODY, s(schedule.body()));
        item.put(VERSION, n(schedule.version()));
        item.put(UPDATED, n(micros(schedule.updatedAt())));
        if (schedule.wakeAt() != null) {
            long wake = micros(schedule.wakeAt());
            item.put(WAKE_AT, n(wake));
            item.put(WAKE_KEY, s(Attrs.timeKey(wake, schedule.id())));
        }
        return item;
    }

    private static StoredSchedule schedule(Map<String, AttributeValue> item) {
        return new StoredSchedule(
                str(item, ID),
                str(item, BODY),
                Attrs.instant(item, WAKE_AT),
                num(item, VERSION, 1),
                Attrs.instant(item, UPDATED));
    }
}
