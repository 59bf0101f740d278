package io.worldflow.world.aws;

import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A first opening asks DynamoDB for every missing table before it waits for any of them to become active, so that
 * DynamoDB makes them side by side; and it waits for each until DynamoDB says it is active.
 */
class TableCreationTest {

    private static final List<String> TABLES =
            List.of("runs", "events", "signals", "signal_keys", "schedules", "queues", "search");

    @Test
    void everyMissingTableIsAskedForBeforeAnyIsWaitedForAndEachIsWaitedForUntilActive() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            StillCreating creating = new StillCreating(2);

            AwsWorld world = AwsWorld.open(
                    new WorldContext(worlds.config(), worlds.clock, worlds.codec.eventCodec()), List.of(creating));

            try {
                List<String> created = creating.calls.stream()
                        .filter(c -> c.startsWith("create "))
                        .toList();
                assertThat(created)
                        .containsExactlyInAnyOrderElementsOf(TABLES.stream()
                                .map(t -> "create " + worlds.prefix + t)
                                .toList());
                int lastCreate = creating.calls.lastIndexOf(created.getLast());
                int firstLookAgain = creating.calls.indexOf(creating.calls.stream()
                        .filter(c -> c.startsWith("again "))
                        .findFirst()
                        .orElseThrow());
                assertThat(lastCreate)
                        .as("the last table asked for before any is looked at again: %s", creating.calls)
                        .isLessThan(firstLookAgain);
                for (String table : TABLES) {
                    assertThat(creating.statuses(worlds.prefix + table))
                            .as("what the opening was told of %s, until it went on", table)
                            .containsExactly(TableStatus.CREATING, TableStatus.CREATING, TableStatus.ACTIVE);
                }
                assertThat(world.runQueries().list(io.worldflow.RunQuery.all()).runs())
                        .as("the world opened works")
                        .isEmpty();
            } finally {
                world.close();
            }
        }
    }

    /**
     * Reports each table this test's world creates as still being created the first {@code times} times it is
     * described after it was asked for, as DynamoDB does for some seconds (DynamoDB Local makes a table active at
     * once), and records the calls: {@code create <table>}, {@code describe <table> <status>} for the first look
     * after the create, {@code again <table> <status>} for every later one.
     */
    static final class StillCreating implements ExecutionInterceptor {
        final List<String> calls = new CopyOnWriteArrayList<>();
        private final int times;
        private final Map<String, AtomicInteger> looks = new ConcurrentHashMap<>();

        StillCreating(int times) {
            this.times = times;
        }

        List<TableStatus> statuses(String table) {
            return calls.stream()
                    .filter(c -> c.startsWith("describe " + table + " ") || c.startsWith("again " + table + " "))
                    .map(c -> TableStatus.fromValue(c.substring(c.lastIndexOf(' ') + 1)))
                    .toList();
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (context.response() instanceof CreateTableResponse r) {
                String table = r.tableDescription().tableName();
                looks.put(table, new AtomicInteger());
                calls.add("create " + table);
                return r;
            }
            if (!(context.response() instanceof DescribeTableResponse r)
                    || !looks.containsKey(r.table().tableName())) {
                return context.response();
            }
            String table = r.table().tableName();
            int look = looks.get(table).getAndIncrement();
            TableStatus status = look < times ? TableStatus.CREATING : r.table().tableStatus();
            calls.add((look == 0 ? "describe " : "again ") + table + " " + status);
            return r.toBuilder()
                    .table(r.table().toBuilder().tableStatus(status).build())
                    .build();
        }
    }
}
