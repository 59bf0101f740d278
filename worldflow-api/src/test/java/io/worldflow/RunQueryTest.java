package io.worldflow;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunQueryTest {

    @Test
    void allIsEveryRunFiftyPerPage() {
        RunQuery q = RunQuery.all();

        assertThat(q.statuses()).isEmpty();
        assertThat(q.workflow()).isNull();
        assertThat(q.idPrefix()).isNull();
        assertThat(q.limit()).isEqualTo(50);
        assertThat(q.cursor()).isNull();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001, Integer.MAX_VALUE})
    void limitOutsideOneToAThousandIsRejectedNamingIt(int limit) {
        assertThatThrownBy(() -> RunQuery.all().withLimit(limit))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..1000")
                .hasMessageContaining(String.valueOf(limit));
    }

    @Test
    void limitsAtTheBoundsAreAccepted() {
        assertThat(RunQuery.all().withLimit(1).limit()).isEqualTo(1);
        assertThat(RunQuery.all().withLimit(RunQuery.MAX_LIMIT).limit()).isEqualTo(1000);
    }

    @Test
    void withersKeepTheOtherFilters() {
        Instant after = Instant.parse("2030-01-01T00:00:00Z");
        Instant before = after.plusSeconds(60);

        RunQuery q = RunQuery.all()
                .withStatuses(RunStatus.FAILED, RunStatus.CANCELED)
                .withWorkflow("order.v1")
                .withIdPrefix("order-")
                .withCreated(after, before)
                .withLimit(10)
                .withCursor("c1")
                .withHeld(true)
                .withParent("p-1");

        assertThat(q)
                .isEqualTo(new RunQuery(
                        Set.of(RunStatus.FAILED, RunStatus.CANCELED),
                        true,
                        "order.v1",
                        "order-",
                        after,
                        before,
                        10,
                        "c1",
                        "p-1"));
    }

    @Test
    void nullStatusesMeanAll() {
        assertThat(new RunQuery(null, null, null, null, null, null, 5, null, null).statuses())
                .isEmpty();
    }

    @Test
    void terminalStatusesAreTheLastThree() {
        assertThat(List.of(RunStatus.values()).stream().filter(RunStatus::isTerminal))
                .containsExactly(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED);
    }

    @Test
    void aPageWithACursorHasMore() {
        assertThat(new RunPage(List.of(), "next").hasMore()).isTrue();
        assertThat(new RunPage(List.of(), null).hasMore()).isFalse();
    }
}
