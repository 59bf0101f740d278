package io.worldflow.tck;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.SearchValues;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Search attributes in the world: a run's attributes as it is created (by a client or by another run's append) and
 * as its appends change them are kept with its projection and indexed, so that {@link RunQuery#withAttribute} finds
 * exactly the runs whose current value is equal and of the same type, newest first, paged and combined with the other
 * filters; an append that is refused changes no attribute; values match literally.
 */
public abstract class SearchIndexContract extends WorldContractSupport {

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    static final SearchKey<Long> AMOUNT = SearchKey.forLong("amount");
    static final SearchKey<Boolean> VIP = SearchKey.forBoolean("vip");
    static final SearchKey<Instant> DUE = SearchKey.forInstant("due");

    protected SearchIndexContract(WorldConformanceKit kit) {
        super(kit);
    }

    private NewRun searchable(String runId, SearchAttributes attributes) {
        return newRun(runId).withSearchAttributes(attributes);
    }

    private List<String> found(RunQuery query) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            RunPage page = queries().list(query.withCursor(cursor));
            page.runs().forEach(r -> ids.add(r.runId()));
            cursor = page.nextCursor();
        } while (cursor != null);
        return ids;
    }

    private List<String> found(SearchKey<?> key, Object value) {
        return found(RunQuery.all().withAttributes(SearchAttributes.empty().withValue(key.name(), value)));
    }

    private AppendResult update(String runId, long seq, String... changes) {
        return append(new Append(
                runId,
                seq,
                List.of(new SearchAttributesUpdated(runId, seq, now(), "search#" + seq, List.of(changes))),
                RunStatus.RUNNING));
    }

    @Test
    void aRunIsCreatedWithItsAttributesAndFoundByEachOfThemOnly() {
        Instant due = Instant.parse("2026-03-01T10:15:30.123456Z");
        SearchAttributes attrs = SearchAttributes.of(CUSTOMER, "42")
                .with(AMOUNT, 1200L)
                .with(VIP, true)
                .with(DUE, due);
        RunInfo created = create(searchable("order-1", attrs));
        create(searchable("order-2", SearchAttributes.of(CUSTOMER, "43").with(AMOUNT, 1200L)));
        create("order-3");

        assertThat(created.searchAttributes()).isEqualTo(attrs);
        assertThat(info("order-1").searchAttributes()).isEqualTo(attrs);
        assertThat(info("order-3").searchAttributes()).isEqualTo(SearchAttributes.empty());
        assertThat(queries().list(RunQuery.all()).runs())
                .filteredOn(r -> r.runId().equals("order-1"))
                .extracting(RunInfo::searchAttributes)
                .containsExactly(attrs);

        assertThat(found(CUSTOMER, "42")).containsExactly("order-1");
        assertThat(found(AMOUNT, 1200L)).containsExactly("order-2", "order-1");
        assertThat(found(VIP, true)).containsExactly("order-1");
        assertThat(found(DUE, due)).containsExactly("order-1");
        // every attribute asked for must hold
        assertThat(found(RunQuery.all().withAttribute(AMOUNT, 1200L).withAttribute(CUSTOMER, "43")))
                .containsExactly("order-2");
        assertThat(found(RunQuery.all().withAttribute(AMOUNT, 1200L).withAttribute(CUSTOMER, "44")))
                .isEmpty();
        // of the same type: "42" is not 42, "true" is not true, and another instant is another value
        assertThat(found(SearchKey.forLong("customer"), 42L)).isEmpty();
        assertThat(found(SearchKey.forString("vip"), "true")).isEmpty();
        assertThat(found(SearchKey.forString("amount"), "1200")).isEmpty();
        assertThat(found(DUE, due.plusNanos(1000))).isEmpty();
        assertThat(found(VIP, false)).isEmpty();
        assertThat(found(SearchKey.forString("nobody"), "42")).isEmpty();
    }

    @Test
    void anAppendThatChangesAttributesReindexesTheRun() {
        create(searchable("order-1", SearchAttributes.of(CUSTOMER, "42").with(VIP, true)));
        create(searchable("order-2", SearchAttributes.of(CUSTOMER, "42")));

        assertThat(update("order-1", 1, "customer=" + SearchValues.encode("77"), "amount=l:-5", "vip")
                        .appended())
                .isTrue();

        assertThat(info("order-1").searchAttributes())
                .isEqualTo(SearchAttributes.of(CUSTOMER, "77").with(AMOUNT, -5L));
        assertThat(found(CUSTOMER, "42")).containsExactly("order-2");
        assertThat(found(CUSTOMER, "77")).containsExactly("order-1");
        assertThat(found(AMOUNT, -5L)).containsExactly("order-1");
        assertThat(found(VIP, true)).isEmpty();

        // several changes of one attribute in one append: the last one counts
        Append two = new Append(
                "order-2",
                1,
                List.of(
                        new SearchAttributesUpdated("order-2", 1, now(), "search#1", List.of("customer=s:50")),
                        stepScheduled("order-2", 2),
                        new SearchAttributesUpdated("order-2", 3, now(), "search#2", List.of("customer=s:51"))),
                RunStatus.RUNNING);
        assertThat(append(two).appended()).isTrue();
        assertThat(found(CUSTOMER, "50")).isEmpty();
        assertThat(found(CUSTOMER, "51")).containsExactly("order-2");
        assertThat(info("order-2").searchAttributes()).isEqualTo(SearchAttributes.of(CUSTOMER, "51"));

        // a removed attribute set again is found again, and an ended run is still found
        assertThat(update("order-1", 2, "vip=b:false").appended()).isTrue();
        finish("order-1");
        assertThat(found(VIP, false)).containsExactly("order-1");
        assertThat(found(RunQuery.all().withAttribute(CUSTOMER, "77").withStatuses(RunStatus.COMPLETED)))
                .containsExactly("order-1");
    }

    @Test
    void aRefusedAppendChangesNoAttribute() {
        create(searchable("order-1", SearchAttributes.of(CUSTOMER, "42")));
        markRunning("order-1");

        AppendResult stale = update("order-1", 1, "customer=s:99", "amount=l:7");

        assertThat(stale.appended()).isFalse();
        assertThat(info("order-1").searchAttributes()).isEqualTo(SearchAttributes.of(CUSTOMER, "42"));
        assertThat(found(CUSTOMER, "99")).isEmpty();
        assertThat(found(AMOUNT, 7L)).isEmpty();
        assertThat(found(CUSTOMER, "42")).containsExactly("order-1");
    }

    @Test
    void aRunStartedByAnotherRunsAppendIsIndexedWithItsAttributes() {
        create("parent");
        NewRun child = new NewRun("parent/child", WORKFLOW, payload("c"), now(), now(), null, QUEUE, 0, "parent")
                .withSearchAttributes(SearchAttributes.of(CUSTOMER, "42"));
        Append start = new Append("parent", 1, List.of(stepScheduled("parent", 1)), RunStatus.RUNNING)
                .withEffects(List.of(child), List.of(), List.of(), null);

        assertThat(append(start).appended()).isTrue();

        assertThat(found(CUSTOMER, "42")).containsExactly("parent/child");
        assertThat(info("parent/child").searchAttributes()).isEqualTo(SearchAttributes.of(CUSTOMER, "42"));
        assertThat(found(RunQuery.all().withParent("parent").withAttribute(CUSTOMER, "42")))
                .containsExactly("parent/child");
    }

    @Test
    void aSearchPagesNewestFirstAndCombinesWithTheOtherFilters() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            String id = "run-" + (100 + i);
            create(searchable(id, SearchAttributes.of(CUSTOMER, i % 2 == 0 ? "even" : "odd")));
            if (i % 2 == 0) {
                expected.addFirst(id);
            }
            if (i % 4 == 0) {
                append(id, RunStatus.FAILED, new WorkflowFailed(id, 1, now(), sampleError()));
            }
            clock.advance(MS);
        }

        assertThat(found(RunQuery.all().withAttribute(CUSTOMER, "even").withLimit(5)))
                .containsExactlyElementsOf(expected);
        assertThat(found(RunQuery.all().withAttribute(CUSTOMER, "even").withLimit(1000)))
                .containsExactlyElementsOf(expected);
        assertThat(found(RunQuery.all()
                        .withAttribute(CUSTOMER, "even")
                        .withStatuses(RunStatus.FAILED)
                        .withLimit(2)))
                .containsExactly("run-120", "run-116", "run-112", "run-108", "run-104", "run-100");
        assertThat(found(RunQuery.all().withAttribute(CUSTOMER, "even").withIdPrefix("run-11")))
                .containsExactly("run-118", "run-116", "run-114", "run-112", "run-110");
        Instant from = info("run-110").createdAt();
        Instant to = info("run-115").createdAt();
        assertThat(found(RunQuery.all().withAttribute(CUSTOMER, "odd").withCreated(from, to)))
                .containsExactly("run-113", "run-111");

        Map<RunStatus, Long> counts = queries().countByStatus(RunQuery.all().withAttribute(CUSTOMER, "even"));
        assertThat(counts.get(RunStatus.FAILED)).isEqualTo(6);
        assertThat(counts.get(RunStatus.PENDING)).isEqualTo(6);
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(12);
    }

    @Test
    void valuesMatchLiterallyWhateverTheyHold() {
        List<String> values = new ArrayList<>(RunQueriesContract.HOSTILE_IDS);
        values.addAll(List.of("", " ", "zürich ✓ 東京", "line\nbreak", "s:nested", "a=b", "x".repeat(256)));
        for (int i = 0; i < values.size(); i++) {
            create(searchable("v-" + i, SearchAttributes.of(CUSTOMER, values.get(i))));
        }

        for (int i = 0; i < values.size(); i++) {
            assertThat(found(CUSTOMER, values.get(i)))
                    .as("runs whose customer is [%s]", values.get(i))
                    .containsExactly("v-" + i);
            assertThat(info("v-" + i).searchAttributes().get(CUSTOMER)).isEqualTo(values.get(i));
        }
        assertThat(found(CUSTOMER, "a%")).isEmpty();
        assertThat(found(CUSTOMER, "x".repeat(255))).isEmpty();
    }

    @Test
    void listFiltersByQueueAndByUpdateTime() {
        create(newRun("in-default"));
        create(newRun("in-bulk", "bulk", 0, now()));
        clock.advance(Duration.ofSeconds(10));
        Instant later = now();
        markRunning("in-default");

        assertThat(found(RunQuery.all().withQueue("bulk"))).containsExactly("in-bulk");
        assertThat(found(RunQuery.all().withQueue(QUEUE))).containsExactly("in-default");
        assertThat(found(RunQuery.all().withQueue("none"))).isEmpty();
        assertThat(found(RunQuery.all().withUpdated(later, null))).containsExactly("in-default");
        assertThat(found(RunQuery.all().withUpdated(null, later))).containsExactly("in-bulk");
        assertThat(queries().countByStatus(RunQuery.all().withQueue("bulk")).get(RunStatus.PENDING))
                .isEqualTo(1);
    }

    @Test
    void attributesSurviveReopenAndGoWithAPurgedRun() {
        create(searchable("kept", SearchAttributes.of(CUSTOMER, "42")));
        create(searchable("purged", SearchAttributes.of(CUSTOMER, "42")));
        finish("purged");
        reopen();

        assertThat(found(CUSTOMER, "42")).containsExactly("purged", "kept");
        assertThat(info("kept").searchAttributes()).isEqualTo(SearchAttributes.of(CUSTOMER, "42"));

        clock.advance(Duration.ofDays(30));
        assertThat(log().purgeFinished(now(), 100)).isEqualTo(1);
        assertThat(found(CUSTOMER, "42")).containsExactly("kept");
    }
}
