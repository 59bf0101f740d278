package io.worldflow.world.aws.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.worldflow.world.aws.internal.Attrs.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The search table at the moments the conformance kit cannot reach: an index entry that no longer describes its run
 * (DynamoDB fills an index after the write; an item left by a run that is gone), and an append read before another
 * that commits first.
 */
class SearchItemsTest {

    private static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    private static final SearchKey<String> STAGE = SearchKey.forString("stage");

    private final JsonCodec json = new JsonCodec();
    private final ManualClock clock = ManualClock.start();
    private final String prefix = Emulators.freshPrefix();
    private final Tables tables = Tables.named(prefix);
    private final DynamoDbClient dynamo = Emulators.shared().dynamoClient();
    private final Interleave interleave = new Interleave();
    private final WorldConfig config = Emulators.shared().config(prefix);
    private final AwsWorld world =
            AwsWorld.open(new WorldContext(config, clock, json.eventCodec()), List.of(interleave));
    /** Another process writing to the same tables. */
    private final AwsWorld other = AwsWorld.open(new WorldContext(config, clock, json.eventCodec()));

    @AfterEach
    void close() {
        world.close();
        other.close();
        dynamo.close();
    }

    private RunInfo create(String runId, SearchAttributes attributes) {
        Instant now = clock.instant();
        RunInfo created = world.eventLog()
                .create(new NewRun(runId, "search.v1", json.encode(runId, "input"), now, now, null, "default", 0)
                        .withSearchAttributes(attributes))
                .run();
        clock.advance(Duration.ofMillis(1));
        return created;
    }

    private static Append change(String runId, long seq, String... entries) {
        return new Append(
                runId,
                seq,
                List.of(new SearchAttributesUpdated(runId, seq, Instant.EPOCH, "search#" + seq, List.of(entries))),
                RunStatus.RUNNING);
    }

    private AppendResult append(AwsWorld by, Append a) {
        return by.eventLog().append(List.of(a)).getFirst();
    }

    private List<String> found(RunQuery query) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            RunPage page = world.runQueries().list(query.withCursor(cursor));
            page.runs().forEach(r -> ids.add(r.runId()));
            cursor = page.nextCursor();
        } while (cursor != null);
        return ids;
    }

    private static RunQuery customer(String value, int limit) {
        return RunQuery.all().withAttribute(CUSTOMER, value).withLimit(limit);
    }

    /** The run's items in the search table, as they are stored: index key to creation key. */
    private Map<String, String> indexed(String runId) {
        Map<String, String> out = new TreeMap<>();
        dynamo.queryPaginator(q -> q.tableName(tables.search())
                        .consistentRead(true)
                        .keyConditionExpression("#r = :r")
                        .expressionAttributeNames(Map.of("#r", SearchIndex.RUN))
                        .expressionAttributeValues(Map.of(":r", s(runId))))
                .items()
                .forEach(item -> out.put(Attrs.str(item, SearchIndex.KEY), Attrs.str(item, SearchIndex.CREATED_KEY)));
        return out;
    }

    /** Puts an item in the search table as no write of the world would leave it. */
    private void plant(String runId, String key, String createdKey) {
        dynamo.putItem(p -> p.tableName(tables.search())
                .item(Map.of(
                        SearchIndex.RUN, s(runId),
                        SearchIndex.KEY, s(key),
                        SearchIndex.CREATED_KEY, s(createdKey))));
    }

    private static String createdKey(RunInfo run) {
        return Attrs.timeKey(Attrs.micros(run.createdAt()), run.runId());
    }

    @Test
    void anIndexEntryWhoseValueItsRunNoLongerHasNeverListsTheRun() {
        List<RunInfo> runs = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            runs.add(create("order-" + i, SearchAttributes.of(CUSTOMER, "a")));
        }
        assertThat(append(world, change("order-2", 1, "customer=s:b")).appended())
                .isTrue();
        assertThat(append(world, change("order-4", 1, "customer=s:b")).appended())
                .isTrue();
        // entries for a value the runs had: as an index that has not caught up yet shows them, or as a write that
        // never reached the run's item would leave them; and one for a run that does not exist
        plant("order-2", "customer=s:a", createdKey(runs.get(1)));
        plant("order-4", "customer=s:a", createdKey(runs.get(3)));
        plant("order-0", "customer=s:a", Attrs.timeKey(Attrs.micros(clock.instant()), "order-0"));
        assertThat(indexed("order-2")).containsOnlyKeys("customer=s:a", "customer=s:b");

        for (int limit : List.of(1, 2, 1000)) {
            assertThat(found(customer("a", limit)))
                    .as("pages of %d", limit)
                    .containsExactly("order-5", "order-3", "order-1");
        }
        assertThat(found(customer("b", 1))).containsExactly("order-4", "order-2");
        assertThat(found(customer("a", 10).withStatuses(RunStatus.RUNNING))).isEmpty();
        Map<RunStatus, Long> counts = world.runQueries().countByStatus(customer("a", 10));
        assertThat(counts).containsEntry(RunStatus.PENDING, 3L).containsEntry(RunStatus.RUNNING, 0L);
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
    }

    @Test
    void anIndexEntryWhoseCreationKeyIsNotItsRunsDoesNotListTheRunOutOfPlace() {
        Instant earlier = clock.instant();
        clock.advance(Duration.ofHours(1));
        RunInfo run = create("order-1", SearchAttributes.of(CUSTOMER, "a"));
        // as an earlier run of the same id, created an hour before, could have left it
        plant("order-1", "customer=s:a", Attrs.timeKey(Attrs.micros(earlier), "order-1"));

        assertThat(found(customer("a", 10).withCreated(earlier, run.createdAt())))
                .as("the run was not created in that hour")
                .isEmpty();
    }

    @Test
    void anAppendReadBeforeAnotherCommittedWritesNoneOfItsChanges() {
        create("order-1", SearchAttributes.of(CUSTOMER, "42").with(STAGE, "reserved"));
        // the other process's append commits between this one's read of the run and its write
        interleave.arm(() -> assertThat(
                        append(other, change("order-1", 1, "customer=s:77")).appended())
                .isTrue());

        AppendResult older = append(world, change("order-1", 1, "customer", "stage=s:packed"));

        assertThat(interleave.fired).isTrue();
        assertThat(older.appended()).isFalse();
        assertThat(older.logLength()).isEqualTo(2);
        assertThat(world.runQueries().get("order-1").orElseThrow().searchAttributes())
                .isEqualTo(SearchAttributes.of(CUSTOMER, "77").with(STAGE, "reserved"));
        // the search table as the newer append left it: the older one neither removed its customer nor replaced its
        // stage
        assertThat(indexed("order-1")).containsOnlyKeys("customer=s:77", "stage=s:reserved");
        assertThat(found(RunQuery.all().withAttribute(STAGE, "reserved"))).containsExactly("order-1");
        assertThat(found(RunQuery.all().withAttribute(STAGE, "packed"))).isEmpty();
        assertThat(found(customer("77", 10))).containsExactly("order-1");
    }

    @Test
    void theSearchTableHoldsExactlyTheRunsCurrentAttributesUntilTheRunIsPurged() {
        RunInfo run = create("order-1", SearchAttributes.of(CUSTOMER, "42").with(STAGE, "new"));
        String ck = createdKey(run);
        assertThat(indexed("order-1")).isEqualTo(Map.of("customer=s:42", ck, "stage=s:new", ck));

        assertThat(append(world, change("order-1", 1, "stage=s:packed", "customer", "round=l:1"))
                        .appended())
                .isTrue();
        assertThat(indexed("order-1")).isEqualTo(Map.of("stage=s:packed", ck, "round=l:1", ck));

        // set to what it is, removed when absent: nothing changes; then a value removed comes back
        assertThat(append(world, change("order-1", 2, "stage=s:packed", "customer"))
                        .appended())
                .isTrue();
        assertThat(append(world, change("order-1", 3, "customer=s:42", "round")).appended())
                .isTrue();
        assertThat(indexed("order-1")).isEqualTo(Map.of("stage=s:packed", ck, "customer=s:42", ck));
        assertThat(world.runQueries().get("order-1").orElseThrow().searchAttributes())
                .isEqualTo(SearchAttributes.of(CUSTOMER, "42").with(STAGE, "packed"));

        world.eventLog()
                .append(List.of(new Append(
                        "order-1",
                        4,
                        List.of(new WorkflowCompleted("order-1", 4, clock.instant(), json.encode("done", "output"))),
                        RunStatus.COMPLETED)));
        clock.advance(Duration.ofDays(1));
        assertThat(world.eventLog().purgeFinished(clock.instant(), 10)).isEqualTo(1);

        assertThat(indexed("order-1")).isEmpty();
    }

    @Test
    void anAppendThatWouldLeaveARunTooManyAttributesIsRefusedAndWritesNothing() {
        create("order-1", SearchAttributes.empty());
        String[] many = new String[SearchAttributes.MAX_ATTRIBUTES + 1];
        for (int i = 0; i < many.length; i++) {
            many[i] = "n" + i + "=l:" + i;
        }

        Throwable refused = catchThrowable(() -> append(world, change("order-1", 1, many)));

        assertThat(refused)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + SearchAttributes.MAX_ATTRIBUTES);
        assertThat(world.runQueries().get("order-1").orElseThrow().logLength()).isEqualTo(1);
        assertThat(indexed("order-1")).isEmpty();
    }

    /** Once armed: runs a task just before the world's next transaction. */
    private static final class Interleave implements ExecutionInterceptor {
        private volatile Runnable task;
        volatile boolean fired;

        void arm(Runnable r) {
            task = r;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            Runnable r = task;
            if (context.request() instanceof TransactWriteItemsRequest && r != null) {
                task = null;
                fired = true;
                r.run();
            }
        }
    }
}
