package io.worldflow.world.aws.internal;

import io.worldflow.tck.WorldConformanceKit.Tamper;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.b;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.s;

/**
 * Edits a run's stored log directly in DynamoDB, as someone with access to the tables could, for the conformance kit's
 * {@code tamper}: the items of the events table and the run's item, written with a plain client, no world involved.
 */
public final class LogItemTamper {

    private final DynamoDbClient dynamo;
    private final Tables tables;

    public LogItemTamper(DynamoDbClient dynamo, String tablePrefix) {
        this.dynamo = dynamo;
        this.tables = Tables.named(tablePrefix);
    }

    /** Makes the edit {@code how} to the record of {@code runId} that begins at {@code seq}. */
    public void tamper(String runId, Tamper how, long seq) {
        if (how.forgesState()) {
            forgeState(runId, how);
            return;
        }
        List<List<Map<String, AttributeValue>>> records = records(runId);
        int at = -1;
        for (int i = 0; i < records.size(); i++) {
            if (first(records.get(i)) == seq) {
                at = i;
            }
        }
        if (at < 0) {
            throw new IllegalArgumentException("run " + runId + " has no record beginning at seq " + seq);
        }
        List<Map<String, AttributeValue>> record = records.get(at);
        switch (how) {
            case CHANGE_BYTE -> changeByte(record);
            case DELETE_RECORD, TRUNCATE_TAIL -> record.forEach(this::delete);
            case SWAP_WITH_NEXT -> swap(record, records.get(at + 1));
            case STRIP_LINKS -> {
                for (List<Map<String, AttributeValue>> r : records) {
                    rewrite(r, text(r), null, first(r));
                }
                dynamo.updateItem(u -> u.tableName(tables.runs())
                        .key(RunItem.key(runId))
                        .updateExpression("REMOVE #h")
                        .expressionAttributeNames(Map.of("#h", RunItem.HEAD)));
                changeByte(records(runId).get(at));
            }
            case ROLL_BACK_HEAD ->
                dynamo.updateItem(u -> u.tableName(tables.runs())
                        .key(RunItem.key(runId))
                        .updateExpression("SET #h = :h")
                        .expressionAttributeNames(Map.of("#h", RunItem.HEAD))
                        .expressionAttributeValues(
                                Map.of(":h", record.getFirst().get(EventPages.LINK))));
        }
    }

    /** One attribute of the run's item set behind the world's back; the log's items left as they are. */
    private void forgeState(String runId, Tamper how) {
        Map<String, AttributeValue> run = dynamo.getItem(
                        g -> g.tableName(tables.runs()).key(RunItem.key(runId)).consistentRead(true))
                .item();
        Map.Entry<String, AttributeValue> set = switch (how) {
            case FORGE_STATUS -> {
                // the stored status may carry a shard after the name: the name alone is changed
                String status = run.get(RunItem.STATUS).s();
                yield Map.entry(
                        RunItem.STATUS,
                        s("FAILED" + status.substring(Shards.plain(status).length())));
            }
            case FORGE_OUTPUT -> Map.entry(RunItem.OUTPUT, s("\"forged\""));
            case FORGE_INPUT -> Map.entry(RunItem.INPUT, s("\"forged\""));
            case FORGE_ATTRIBUTES ->
                Map.entry(SearchIndex.ATTRIBUTES, SearchIndex.itemValue(Map.of("customer", "s:forged")));
            default -> throw new IllegalArgumentException("not an edit of the run's state: " + how);
        };
        dynamo.updateItem(u -> u.tableName(tables.runs())
                .key(RunItem.key(runId))
                .updateExpression("SET #a = :v")
                .expressionAttributeNames(Map.of("#a", set.getKey()))
                .expressionAttributeValues(Map.of(":v", set.getValue())));
    }

    /** The run's records in seq order, each as its items in part order. */
    private List<List<Map<String, AttributeValue>>> records(String runId) {
        Map<String, List<Map<String, AttributeValue>>> byLast = new LinkedHashMap<>();
        dynamo.queryPaginator(q -> q.tableName(tables.events())
                        .consistentRead(true)
                        .keyConditionExpression("#r = :r")
                        .expressionAttributeNames(Map.of("#r", EventPages.RUN))
                        .expressionAttributeValues(Map.of(":r", s(runId))))
                .items()
                .forEach(
                        item -> byLast.computeIfAbsent(item.get(EventPages.LAST).n(), k -> new ArrayList<>())
                                .add(item));
        return new ArrayList<>(byLast.values());
    }

    private static long first(List<Map<String, AttributeValue>> record) {
        return Long.parseLong(record.getFirst().get(EventPages.FIRST).n());
    }

    /**
     * Changes the byte in the middle of the record's text, or the next that is an ASCII letter or digit, into another
     * one of its kind: the length and the text's validity as UTF-8 kept.
     */
    private void changeByte(List<Map<String, AttributeValue>> record) {
        byte[] text = text(record);
        int i = text.length / 2;
        while (!Character.isLetterOrDigit(text[i])) { // a byte of a multi-byte character is negative: no letter
            i++;
        }
        byte c = text[i];
        text[i] = (byte) (Character.isDigit(c) ? (c == '9' ? '0' : c + 1) : c ^ 0x20);
        rewrite(record, text, link(record), first(record));
    }

    /** The two records exchange their text and link; each keeps its seq range and keys. */
    private void swap(List<Map<String, AttributeValue>> a, List<Map<String, AttributeValue>> b) {
        byte[] textA = text(a);
        AttributeValue linkA = link(a);
        rewrite(a, text(b), link(b), first(a));
        rewrite(b, textA, linkA, first(b));
    }

    /** Replaces the record's items with ones holding {@code text} and {@code link}, at the same seq range. */
    private void rewrite(List<Map<String, AttributeValue>> record, byte[] text, AttributeValue link, long first) {
        long last = Long.parseLong(record.getFirst().get(EventPages.LAST).n());
        record.forEach(this::delete);
        int parts = Math.max(1, (text.length + EventPages.PART_BYTES - 1) / EventPages.PART_BYTES);
        for (int p = 0; p < parts; p++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put(EventPages.RUN, record.getFirst().get(EventPages.RUN));
            item.put(EventPages.KEY, s(EventPages.key(last, p)));
            item.put(EventPages.FIRST, n(first));
            item.put(EventPages.LAST, n(last));
            item.put(EventPages.PARTS, n(parts));
            item.put(
                    EventPages.DATA,
                    b(Arrays.copyOfRange(
                            text, p * EventPages.PART_BYTES, Math.min(text.length, (p + 1) * EventPages.PART_BYTES))));
            if (p == 0 && link != null) {
                item.put(EventPages.LINK, link);
            }
            dynamo.putItem(put -> put.tableName(tables.events()).item(item));
        }
    }

    private static byte[] text(List<Map<String, AttributeValue>> record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        record.forEach(item -> out.writeBytes(item.get(EventPages.DATA).b().asByteArray()));
        return out.toByteArray();
    }

    private static AttributeValue link(List<Map<String, AttributeValue>> record) {
        return record.getFirst().get(EventPages.LINK);
    }

    private void delete(Map<String, AttributeValue> item) {
        dynamo.deleteItem(d -> d.tableName(tables.events())
                .key(Map.of(
                        EventPages.RUN, item.get(EventPages.RUN),
                        EventPages.KEY, item.get(EventPages.KEY))));
    }
}
