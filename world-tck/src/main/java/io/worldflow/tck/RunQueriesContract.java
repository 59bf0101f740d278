package io.worldflow.tck;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.spi.NewRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reads of the run projection: one run, filtered lists newest first with cursor pagination, and
 * counts per status. Filters are literal: an id prefix is never a pattern.
 */
public abstract class RunQueriesContract extends WorldContractSupport {

    protected RunQueriesContract(WorldConformanceKit kit) {
        super(kit);
    }

    /** Ids that look like patterns or markup to one store or another; the kit matches them literally. */
    static final List<String> HOSTILE_IDS = List.of(
            "plain-1",
            "a%b",
            "axb",
            "a_b",
            "a'b",
            "a\"b",
            "a\\b",
            "a*b",
            "a?b",
            "a[b]",
            "a^b",
            "A-upper",
            "<script>alert(1)</script>",
            "x' OR '1'='1",
            "100%",
            "1000",
            "_x",
            "%x");

    // ---- get ----

    @Test
    void getReturnsTheRunAsCreated() {
        RunInfo created = create("order-1");

        assertThat(queries().get("order-1")).contains(created);
    }

    @Test
    void getOfAnUnknownRunIsEmpty() {
        create("order-1");

        assertThat(queries().get("ghost")).isEmpty();
        assertThat(queries().get("order-")).isEmpty();
        assertThat(queries().get("ORDER-1")).isEmpty();
    }

    // ---- list ----

    @Test
    void listReturnsNewestFirst() {
        create("b-oldest");
        clock.advance(Duration.ofSeconds(1));
        create("c-middle");
        clock.advance(Duration.ofSeconds(1));
        create("a-newest");

        RunPage page = queries().list(RunQuery.all());

        assertThat(ids(page)).containsExactly("a-newest", "c-middle", "b-oldest");
        assertThat(page.nextCursor()).isNull();
        assertThat(page.runs().getFirst()).isEqualTo(info("a-newest"));
    }

    @Test
    void listBreaksCreatedAtTiesByIdDescending() {
        create("run-b");
        create("run-d");
        create("run-a");
        create("run-c");

        assertThat(ids(queries().list(RunQuery.all()))).containsExactly("run-d", "run-c", "run-b", "run-a");
    }

    @Test
    void listOfAnEmptyWorldIsEmpty() {
        RunPage page = queries().list(RunQuery.all());

        assertThat(page.runs()).isEmpty();
        assertThat(page.hasMore()).isFalse();
    }

    @Test
    void listShowsTheCurrentProjection() {
        create("order-1");
        markRunning("order-1");

        assertThat(queries().list(RunQuery.all()).runs()).containsExactly(info("order-1"));
        assertThat(info("order-1").status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void listFiltersByStatusSet() {
        givenRunsInEveryStatus();

        assertThat(ids(queries().list(RunQuery.all().withStatuses(RunStatus.RUNNING))))
                .containsExactly("running");
        assertThat(ids(queries()
                        .list(RunQuery.all().withStatuses(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED))))
                .containsExactly("canceled", "failed", "completed");
        assertThat(ids(queries().list(RunQuery.all().withStatuses(RunStatus.PENDING, RunStatus.WAITING))))
                .containsExactly("waiting", "pending");
        assertThat(ids(queries().list(RunQuery.all().withStatuses()))).hasSize(7);
    }

    @Test
    void listFiltersByWorkflow() {
        create("order-1");
        create(new NewRun("refund-1", "tck.refund.v1", payload("r"), now(), now(), null, QUEUE, 0));
        create(new NewRun("refund-2", "tck.refund.v1", payload("r"), now(), now(), null, QUEUE, 0));
        create(new NewRun("other-1", "tck.refund.v1.extra", payload("r"), now(), now(), null, QUEUE, 0));

        assertThat(ids(queries().list(RunQuery.all().withWorkflow("tck.refund.v1"))))
                .containsExactly("refund-2", "refund-1");
        assertThat(ids(queries().list(RunQuery.all().withWorkflow(WORKFLOW)))).containsExactly("order-1");
        assertThat(ids(queries().list(RunQuery.all().withWorkflow("tck.refund"))))
                .isEmpty();
        assertThat(ids(queries().list(RunQuery.all().withWorkflow("%")))).isEmpty();
    }

    @Test
    void aRunsChildrenAreListedAndCountedByTheirParent() {
        create("order-1");
        create(new NewRun("order-1/ship", "tck.ship", payload("s"), now(), now(), null, QUEUE, 0, "order-1"));
        clock.advance(Duration.ofSeconds(1));
        create(new NewRun("order-1/bill", "tck.bill", payload("b"), now(), now(), null, QUEUE, 0, "order-1"));
        create(new NewRun("order-2/ship", "tck.ship", payload("s"), now(), now(), null, QUEUE, 0, "order-2"));
        markRunning("order-1/bill");

        assertThat(ids(queries().list(RunQuery.all().withParent("order-1"))))
                .containsExactly("order-1/bill", "order-1/ship");
        assertThat(ids(queries().list(RunQuery.all().withParent("order-1").withWorkflow("tck.ship"))))
                .containsExactly("order-1/ship");
        assertThat(ids(queries().list(RunQuery.all().withParent("order-1").withStatuses(RunStatus.RUNNING))))
                .containsExactly("order-1/bill");
        assertThat(ids(queries().list(RunQuery.all().withParent("nobody")))).isEmpty();
        assertThat(queries().countByStatus(RunQuery.all().withParent("order-1")))
                .containsEntry(RunStatus.PENDING, 1L)
                .containsEntry(RunStatus.RUNNING, 1L);
        assertThat(info("order-1/ship").parent()).isEqualTo("order-1");
        assertThat(info("order-1").parent()).isNull();
        RunPage first = queries().list(RunQuery.all().withParent("order-1").withLimit(1));
        assertThat(ids(first)).containsExactly("order-1/bill");
        assertThat(ids(queries()
                        .list(RunQuery.all().withParent("order-1").withLimit(1).withCursor(first.nextCursor()))))
                .containsExactly("order-1/ship");
    }

    @Test
    void listFiltersByIdPrefix() {
        create("order-1");
        create("order-2");
        create("orders-3");
        create("refund-1");

        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("order-")))).containsExactly("order-2", "order-1");
        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("order")))).hasSize(3);
        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("order-1")))).containsExactly("order-1");
        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("rder")))).isEmpty();
        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("")))).hasSize(4);
    }

    @Test
    void idPrefixIsCaseSensitive() {
        create("abc-1");
        create("ABC-2");

        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("abc")))).containsExactly("abc-1");
        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("ABC")))).containsExactly("ABC-2");
        assertThat(ids(queries().list(RunQuery.all().withIdPrefix("Abc")))).isEmpty();
    }

    @ParameterizedTest(name = "prefix [{0}]")
    @ValueSource(
            strings = {
                "%",
                "a%",
                "_",
                "a_",
                "'",
                "a'",
                "\"",
                "a\"",
                "\\",
                "a\\",
                "*",
                "a*",
                "?",
                "a?",
                "[",
                "a[",
                "a[b",
                "^",
                "a^",
                "<script>",
                "<script>alert(1)</script>",
                "' OR '1'='1",
                "x' OR '1'='1",
                "100%",
                "10_0",
                "%x",
                "_x",
                "a",
                "A",
                "; DROP TABLE runs; --"
            })
    void hostileIdPrefixesMatchLiterally(String prefix) {
        for (String id : HOSTILE_IDS) {
            create(id);
        }
        List<String> expected = HOSTILE_IDS.stream()
                .filter(id -> id.startsWith(prefix))
                .sorted(Comparator.reverseOrder())
                .toList();

        RunQuery query = RunQuery.all().withIdPrefix(prefix);

        assertThat(ids(queries().list(query))).containsExactlyElementsOf(expected);
        assertThat(queries().countByStatus(query).getOrDefault(RunStatus.PENDING, 0L))
                .isEqualTo(expected.size());
        assertThat(queries().list(RunQuery.all().withLimit(100)).runs()).hasSize(HOSTILE_IDS.size());
    }

    @Test
    void listFiltersByCreatedRange() {
        Instant start = now();
        for (int i = 0; i < 6; i++) {
            create("run-" + i); // run-i created at start + i minutes
            clock.advance(Duration.ofMinutes(1));
        }

        RunQuery range =
                RunQuery.all().withCreated(start.plus(Duration.ofMinutes(2)), start.plus(Duration.ofMinutes(4)));
        assertThat(ids(queries().list(range)))
                .as("after is inclusive, before exclusive")
                .containsExactly("run-3", "run-2");
        assertThat(ids(queries().list(RunQuery.all().withCreated(start.plus(Duration.ofMinutes(4)), null))))
                .containsExactly("run-5", "run-4");
        assertThat(ids(queries().list(RunQuery.all().withCreated(null, start.plus(Duration.ofMinutes(1))))))
                .containsExactly("run-0");
        assertThat(ids(queries().list(RunQuery.all().withCreated(start.plus(MS), start.plus(Duration.ofMinutes(1))))))
                .isEmpty();
    }

    @Test
    void filtersCombine() {
        givenRunsInEveryStatus();
        create(new NewRun("running-other", "tck.other", payload("x"), now(), now(), null, QUEUE, 0));
        markRunning("running-other");

        RunQuery query = RunQuery.all()
                .withStatuses(RunStatus.RUNNING, RunStatus.SLEEPING)
                .withWorkflow(WORKFLOW)
                .withIdPrefix("run");

        assertThat(ids(queries().list(query))).containsExactly("running");
    }

    @Test
    void listRespectsTheLimit() {
        for (int i = 0; i < 5; i++) {
            create("run-" + i);
        }

        RunPage page = queries().list(RunQuery.all().withLimit(2));

        assertThat(ids(page)).containsExactly("run-4", "run-3");
        assertThat(page.hasMore()).isTrue();
    }

    // ---- pagination ----

    @Test
    void cursorPaginationVisitsEveryRunOnceInOrder() {
        List<String> created = givenManyRuns(120);

        List<RunPage> pages = allPages(RunQuery.all().withLimit(50));

        assertThat(pages).extracting(p -> p.runs().size()).containsExactly(50, 50, 20);
        assertThat(pages.getLast().nextCursor()).isNull();
        assertThat(pages.stream()
                        .flatMap(p -> p.runs().stream())
                        .map(RunInfo::runId)
                        .toList())
                .containsExactlyElementsOf(created.reversed());
    }

    @Test
    void paginationIsStableWhenNewerRunsArrive() {
        List<String> created = givenManyRuns(30);
        RunQuery query = RunQuery.all().withLimit(10);
        RunPage first = queries().list(query);

        clock.advance(Duration.ofMinutes(1));
        create("newcomer");
        List<String> seen = new ArrayList<>(ids(first));
        for (RunPage p = queries().list(query.withCursor(first.nextCursor()));
                ;
                p = queries().list(query.withCursor(p.nextCursor()))) {
            seen.addAll(ids(p));
            if (!p.hasMore()) {
                break;
            }
        }

        assertThat(seen).containsExactlyElementsOf(created.reversed());
    }

    @Test
    void paginationKeepsTheFilters() {
        List<String> created = givenManyRuns(45);
        List<String> running = new ArrayList<>();
        for (int i = 0; i < created.size(); i++) {
            if (i % 3 == 1 || i % 7 == 0) {
                markRunning(created.get(i));
                running.add(created.get(i));
            }
        }

        List<String> seen = allPages(
                        RunQuery.all().withStatuses(RunStatus.RUNNING).withLimit(4))
                .stream()
                .flatMap(p -> p.runs().stream())
                .map(RunInfo::runId)
                .toList();

        assertThat(seen).containsExactlyElementsOf(running.reversed());
    }

    @Test
    void aPageThatHoldsTheRestHasNoCursor() {
        givenManyRuns(7);

        assertThat(queries().list(RunQuery.all().withLimit(8)).nextCursor()).isNull();
        assertThat(queries().list(RunQuery.all().withLimit(1000)).nextCursor()).isNull();
    }

    @ParameterizedTest(name = "cursor [{0}]")
    @ValueSource(
            strings = {
                "not a cursor",
                "!!!",
                "eyJmb28iOiJiYXIifQ",
                "'; DROP TABLE runs; --",
                "%00",
                "<script>",
                "\u0000",
                "ü"
            })
    void malformedCursorIsRejected(String cursor) {
        givenManyRuns(3);

        assertThatThrownBy(() -> queries().list(RunQuery.all().withCursor(cursor)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(queries().list(RunQuery.all()).runs()).hasSize(3);
    }

    // ---- counts ----

    @Test
    void countByStatusCountsEachStatus() {
        givenRunsInEveryStatus();
        create("pending-2");

        Map<RunStatus, Long> counts = queries().countByStatus(RunQuery.all());

        Map<RunStatus, Long> expected = new EnumMap<>(RunStatus.class);
        for (RunStatus s : RunStatus.values()) {
            expected.put(s, s == RunStatus.PENDING ? 2L : 1L);
        }
        assertThat(complete(counts)).isEqualTo(expected);
    }

    @Test
    void countByStatusHonoursFiltersAndIgnoresStatusesCursorAndLimit() {
        givenRunsInEveryStatus();
        create(new NewRun("other-1", "tck.other", payload("x"), now(), now(), null, QUEUE, 0));

        Map<RunStatus, Long> byWorkflow = complete(queries()
                .countByStatus(RunQuery.all()
                        .withWorkflow("tck.other")
                        .withStatuses(RunStatus.COMPLETED)
                        .withLimit(1)));
        Map<RunStatus, Long> byPrefix =
                complete(queries().countByStatus(RunQuery.all().withIdPrefix("c")));

        assertThat(byWorkflow.get(RunStatus.PENDING)).isEqualTo(1);
        assertThat(byWorkflow.values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(1);
        assertThat(byPrefix.get(RunStatus.COMPLETED)).isEqualTo(1);
        assertThat(byPrefix.get(RunStatus.CANCELED)).isEqualTo(1);
        assertThat(byPrefix.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
    }

    @Test
    void listAndCountFilterByHold() {
        givenRunsInEveryStatus();
        log().hold("sleeping", sampleError());
        log().hold("waiting", sampleError());
        log().hold("pending", sampleError());
        appendStep("pending", RunStatus.RUNNING); // made progress: no longer held

        assertThat(ids(queries().list(RunQuery.all().withHeld(true)))).containsExactly("waiting", "sleeping");
        assertThat(ids(queries().list(RunQuery.all().withHeld(false))))
                .containsExactly("canceled", "failed", "completed", "running", "pending");
        assertThat(ids(queries().list(RunQuery.all().withHeld(true).withStatuses(RunStatus.WAITING))))
                .containsExactly("waiting");
        assertThat(ids(queries()
                        .list(RunQuery.all()
                                .withHeld(true)
                                .withWorkflow(WORKFLOW)
                                .withIdPrefix("sl"))))
                .containsExactly("sleeping");
        assertThat(ids(queries().list(RunQuery.all().withHeld(true).withWorkflow("tck.other"))))
                .isEmpty();

        Map<RunStatus, Long> held =
                complete(queries().countByStatus(RunQuery.all().withHeld(true)));
        assertThat(held.get(RunStatus.SLEEPING)).isEqualTo(1);
        assertThat(held.get(RunStatus.WAITING)).isEqualTo(1);
        assertThat(held.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
        Map<RunStatus, Long> notHeld =
                complete(queries().countByStatus(RunQuery.all().withHeld(false)));
        assertThat(notHeld.get(RunStatus.SLEEPING)).isZero();
        assertThat(notHeld.get(RunStatus.RUNNING)).isEqualTo(2);
        assertThat(notHeld.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(5);
    }

    @Test
    void heldRunsPageWithTheirCursor() {
        List<String> created = givenManyRuns(12);
        List<String> heldIds = new ArrayList<>();
        for (int i = 0; i < created.size(); i += 2) {
            log().hold(created.get(i), sampleError());
            heldIds.addFirst(created.get(i));
        }

        List<String> seen = new ArrayList<>();
        for (RunPage page : allPages(RunQuery.all().withHeld(true).withLimit(4))) {
            seen.addAll(ids(page));
        }

        assertThat(seen).containsExactlyElementsOf(heldIds);
    }

    @Test
    void countByStatusOfAnEmptyWorldIsAllZero() {
        assertThat(complete(queries().countByStatus(RunQuery.all())))
                .allSatisfy((s, n) -> assertThat(n).isZero());
    }

    @Test
    void queriesSurviveReopen() {
        givenRunsInEveryStatus();
        RunPage before = queries().list(RunQuery.all());
        Map<RunStatus, Long> counts = complete(queries().countByStatus(RunQuery.all()));

        reopen();

        assertThat(queries().list(RunQuery.all())).isEqualTo(before);
        assertThat(complete(queries().countByStatus(RunQuery.all()))).isEqualTo(counts);
    }

    // ---- helpers ----

    /** One run per status, created a second apart in the order of {@link RunStatus#values()}. */
    private void givenRunsInEveryStatus() {
        for (RunStatus status : RunStatus.values()) {
            String id = status.name().toLowerCase(Locale.ROOT);
            create(id);
            switch (status) {
                case PENDING -> {}
                case RUNNING, SLEEPING, WAITING -> appendStep(id, status);
                case COMPLETED -> finish(id);
                case FAILED -> append(id, status, new WorkflowFailed(id, 1, now(), sampleError()));
                case CANCELED -> append(id, status, new WorkflowCanceled(id, 1, now()));
            }
            assertThat(info(id).status()).isEqualTo(status);
            clock.advance(Duration.ofSeconds(1));
        }
    }

    /** {@code n} runs, oldest first; every three share a creation instant so ties cross page boundaries. */
    private List<String> givenManyRuns(int n) {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = String.format("run-%04d", i);
            create(id);
            created.add(id);
            if (i % 3 == 2) {
                clock.advance(Duration.ofMillis(250));
            }
        }
        return created;
    }

    private List<RunPage> allPages(RunQuery query) {
        List<RunPage> pages = new ArrayList<>();
        Set<String> cursors = new HashSet<>();
        RunPage page = queries().list(query);
        pages.add(page);
        while (page.hasMore()) {
            assertThat(cursors.add(page.nextCursor()))
                    .as("cursor %s repeats", page.nextCursor())
                    .isTrue();
            assertThat(pages).as("more pages than runs").hasSizeLessThan(1000);
            page = queries().list(query.withCursor(page.nextCursor()));
            pages.add(page);
        }
        return pages;
    }

    private static List<String> ids(RunPage page) {
        return page.runs().stream().map(RunInfo::runId).toList();
    }

    /** The counts with a zero for every status the world left out. */
    private static Map<RunStatus, Long> complete(Map<RunStatus, Long> counts) {
        Map<RunStatus, Long> all = new EnumMap<>(RunStatus.class);
        for (RunStatus s : RunStatus.values()) {
            all.put(s, counts.getOrDefault(s, 0L));
        }
        return all;
    }
}
