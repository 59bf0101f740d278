package io.worldflow.world.aws.tck;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The tables of tests that have ended, emptied, for the next tests of the same services to use. Every conformance test
 * needs storage no other test has written, and making a world's seven tables costs DynamoDB Local more with each table
 * it already holds (150 ms for the first world of a JVM, nearly 400 ms by the 400th): emptying the few tables a test
 * wrote and opening a world over them again is a fraction of that. Only the tables are reused: each test still gets
 * queues of its own, so that a wake-up sent late by one test never reaches the next.
 */
final class ReusedTables {

    /** Emptied table prefixes, by the test class whose services hold them. */
    private static final Map<Class<?>, Deque<String>> FREE = new ConcurrentHashMap<>();

    /** The key attributes of each table, by its name, as DynamoDB described it once. */
    private static final Map<String, List<String>> KEYS = new ConcurrentHashMap<>();

    private static final int BATCH = 25;

    private ReusedTables() {}

    /** An emptied prefix of the services of {@code services}, or null when none is free. */
    static String take(Class<?> services) {
        return FREE.computeIfAbsent(services, c -> new ConcurrentLinkedDeque<>())
                .poll();
    }

    /**
     * Deletes every item of every table of {@code prefix}, checks that none is left, and makes the prefix free for
     * another test. A failure leaves the prefix out of use.
     */
    static void give(Class<?> services, DynamoDbClient dynamo, String prefix) {
        for (String table : tables(dynamo, prefix)) {
            empty(dynamo, table);
        }
        FREE.computeIfAbsent(services, c -> new ConcurrentLinkedDeque<>()).push(prefix);
    }

    /** The tables whose names begin with {@code prefix}. */
    static List<String> tables(DynamoDbClient dynamo, String prefix) {
        return dynamo.listTablesPaginator().tableNames().stream()
                .filter(table -> table.startsWith(prefix))
                .toList();
    }

    private static void empty(DynamoDbClient dynamo, String table) {
        List<String> keys = KEYS.computeIfAbsent(
                table,
                t -> dynamo.describeTable(b -> b.tableName(t)).table().keySchema().stream()
                        .map(KeySchemaElement::attributeName)
                        .toList());
        Map<String, String> names = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            names.put("#k" + i, keys.get(i));
        }
        List<WriteRequest> batch = new ArrayList<>(BATCH);
        for (Map<String, AttributeValue> item : dynamo.scanPaginator(b -> b.tableName(table)
                        .projectionExpression(String.join(", ", names.keySet()))
                        .expressionAttributeNames(names))
                .items()) {
            batch.add(WriteRequest.builder()
                    .deleteRequest(DeleteRequest.builder().key(item).build())
                    .build());
            if (batch.size() == BATCH) {
                delete(dynamo, table, batch);
                batch = new ArrayList<>(BATCH);
            }
        }
        if (!batch.isEmpty()) {
            delete(dynamo, table, batch);
        }
        if (dynamo.scan(b -> b.tableName(table).limit(1)).count() != 0) {
            throw new IllegalStateException("table " + table + " still holds items after it was emptied");
        }
    }

    private static void delete(DynamoDbClient dynamo, String table, List<WriteRequest> requests) {
        Map<String, List<WriteRequest>> left = Map.of(table, requests);
        while (!left.isEmpty()) {
            Map<String, List<WriteRequest>> asked = left;
            left = dynamo.batchWriteItem(b -> b.requestItems(asked)).unprocessedItems();
        }
    }
}
