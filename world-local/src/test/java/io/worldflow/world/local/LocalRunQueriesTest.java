package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.RunCursor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalRunQueriesTest extends LocalWorldTestSupport {

    private void createAt(String runId, String workflow) {
        world.eventLog().create(newRun(runId, workflow, now(), QUEUE, 0));
    }

    private void complete(String runId) {
        world.eventLog()
                .append(List.of(new Append(
                        runId, 1, List.of(new WorkflowCompleted(runId, 1, now(), Payload.NULL)), RunStatus.COMPLETED)));
    }

    private List<String> ids(RunQuery query) {
        return world.runQueries().list(query).runs().stream()
                .map(RunInfo::runId)
                .toList();
    }

    @Test
    void getOfAnUnknownRunIsEmpty() {
        assertThat(world.runQueries().get("ghost")).isEmpty();
    }

    @Test
    void listIsNewestFirstWithTiesBrokenByIdDescending() {
        createAt("a", "wf");
        clock.advance(Duration.ofSeconds(1));
        createAt("b", "wf");
        createAt("c", "wf");
        clock.advance(Duration.ofSeconds(1));
        createAt("d", "wf");

        assertThat(ids(RunQuery.all())).containsExactly("d", "c", "b", "a");
    }

    @Test
    void listPagesThroughEveryRunOnceWithACursor() {
        for (int i = 0; i < 25; i++) {
            createAt(String.format("r%02d", i), "wf");
            if (i % 3 == 0) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        List<String> seen = new ArrayList<>();
        RunQuery query = RunQuery.all().withLimit(10);
        int pages = 0;
        while (true) {
            RunPage page = world.runQueries().list(query);
            pages++;
            page.runs().forEach(r -> seen.add(r.runId()));
            if (!page.hasMore()) {
                break;
            }
            query = query.withCursor(page.nextCursor());
        }

        assertThat(pages).isEqualTo(3);
        assertThat(seen).hasSize(25).doesNotHaveDuplicates();
        assertThat(seen.getFirst()).isEqualTo("r24");
        assertThat(seen.getLast()).isEqualTo("r00");
    }

    @Test
    void anExactlyFullLastPageHasNoCursor() {
        createAt("a", "wf");
        createAt("b", "wf");

        assertThat(world.runQueries().list(RunQuery.all().withLimit(2)).nextCursor())
                .isNull();
    }

    @Test
    void listFiltersByStatusWorkflowAndCreationTime() {
        Instant t0 = now();
        createAt("a", "orders");
        clock.advance(Duration.ofSeconds(10));
        Instant t1 = now();
        createAt("b", "orders");
        createAt("c", "refunds");
        clock.advance(Duration.ofSeconds(10));
        createAt("d", "orders");
        complete("b");
        complete("c");

        assertThat(ids(RunQuery.all().withStatuses(RunStatus.COMPLETED))).containsExactly("c", "b");
        assertThat(ids(RunQuery.all().withStatuses(RunStatus.COMPLETED, RunStatus.PENDING)))
                .containsExactly("d", "c", "b", "a");
        assertThat(ids(RunQuery.all().withWorkflow("orders"))).containsExactly("d", "b", "a");
        assertThat(ids(RunQuery.all().withCreated(t1, null))).containsExactly("d", "c", "b");
        assertThat(ids(RunQuery.all().withCreated(t0, t1))).containsExactly("a");
        assertThat(ids(RunQuery.all().withWorkflow("orders").withStatuses(RunStatus.PENDING)))
                .containsExactly("d", "a");
    }

    @Test
    void idPrefixMatchesLiterally() {
        for (String id : List.of("a%_1", "abc", "a%x", "A%_2", "a\\%_3", "b%_4")) {
            createAt(id, "wf");
        }

        assertThat(ids(RunQuery.all().withIdPrefix("a%_"))).containsExactly("a%_1");
        assertThat(ids(RunQuery.all().withIdPrefix("a%"))).containsExactlyInAnyOrder("a%_1", "a%x");
        assertThat(ids(RunQuery.all().withIdPrefix("a\\"))).containsExactly("a\\%_3");
        assertThat(ids(RunQuery.all().withIdPrefix("a"))).hasSize(4);
        assertThat(ids(RunQuery.all().withIdPrefix(""))).hasSize(6);
    }

    @Test
    void aMalformedCursorIsRejected() {
        String notBase64 = "!!!";
        String noSeparator = Base64.getUrlEncoder().encodeToString("12345".getBytes(StandardCharsets.UTF_8));
        String notANumber = Base64.getUrlEncoder().encodeToString("abc:r1".getBytes(StandardCharsets.UTF_8));

        for (String cursor : List.of(notBase64, noSeparator, notANumber)) {
            assertThatThrownBy(() -> world.runQueries().list(RunQuery.all().withCursor(cursor)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cursor");
        }
    }

    @Test
    void aCursorKeepsRunIdsWithColons() {
        RunCursor cursor = new RunCursor(-42, "order:7:x");

        assertThat(RunCursor.decode(cursor.encode())).isEqualTo(cursor);
    }

    @Test
    void countByStatusIgnoresStatusesCursorAndLimit() {
        createAt("a", "orders");
        createAt("b", "orders");
        createAt("c", "refunds");
        complete("a");

        Map<RunStatus, Long> counts = world.runQueries()
                .countByStatus(RunQuery.all()
                        .withStatuses(RunStatus.FAILED)
                        .withLimit(1)
                        .withWorkflow("orders"));

        assertThat(counts)
                .containsEntry(RunStatus.COMPLETED, 1L)
                .containsEntry(RunStatus.PENDING, 1L)
                .containsEntry(RunStatus.FAILED, 0L)
                .containsOnlyKeys(RunStatus.values());
    }
}
