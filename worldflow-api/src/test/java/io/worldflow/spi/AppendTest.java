package io.worldflow.spi;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AppendTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private static Event scheduled(String runId, long seq) {
        return new StepScheduled(runId, seq, T0.plusSeconds(seq), "charge", "charge");
    }

    @Test
    void consecutiveEventsFromTheExpectedSequenceAreAccepted() {
        Append a = new Append(
                "r1",
                3,
                List.of(scheduled("r1", 3), new StepStarted("r1", 4, T0.plusSeconds(4), "charge", 1)),
                RunStatus.RUNNING);

        assertThat(a.nextSeq()).isEqualTo(5);
        assertThat(a.lastAt()).isEqualTo(T0.plusSeconds(4));
        assertThat(a.consumedSignals()).isEmpty();
        assertThat(a.turnEnd()).isNull();
    }

    @Test
    void aGapInTheSequenceIsRejected() {
        assertThatThrownBy(
                        () -> new Append("r1", 3, List.of(scheduled("r1", 3), scheduled("r1", 5)), RunStatus.RUNNING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seq 5")
                .hasMessageContaining("4 was expected");
    }

    @Test
    void eventsNotStartingAtTheExpectedSequenceAreRejected() {
        assertThatThrownBy(() -> new Append("r1", 3, List.of(scheduled("r1", 4)), RunStatus.RUNNING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seq 4")
                .hasMessageContaining("3 was expected");
        assertThatThrownBy(
                        () -> new Append("r1", 3, List.of(scheduled("r1", 3), scheduled("r1", 3)), RunStatus.RUNNING))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEventOfAnotherRunIsRejectedNamingBothRuns() {
        assertThatThrownBy(
                        () -> new Append("r1", 0, List.of(scheduled("r1", 0), scheduled("r2", 1)), RunStatus.RUNNING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("r2")
                .hasMessageContaining("r1");
    }

    @Test
    void noEventsIsAStatusOnlyUpdate() {
        Append a = new Append("r1", 7, List.of(), RunStatus.SLEEPING);

        assertThat(a.events()).isEmpty();
        assertThat(a.nextSeq()).isEqualTo(7);
        assertThat(a.lastAt()).isNull();
        assertThat(a.output()).isNull();
        assertThat(a.error()).isNull();
        assertThat(a.status()).isEqualTo(RunStatus.SLEEPING);
    }

    @Test
    void outputIsTheResultOfAWorkflowCompletedAmongTheEvents() {
        Payload result = new Payload("{\"id\":\"c-1\"}", "com.acme.Receipt");
        Append a = new Append(
                "r1",
                4,
                List.of(
                        new StepCompleted("r1", 4, T0, "charge", 1, new Payload("1", "java.lang.Integer")),
                        new WorkflowCompleted("r1", 5, T0, result)),
                RunStatus.COMPLETED);

        assertThat(a.output()).isEqualTo(result);
        assertThat(a.error()).isNull();
    }

    @Test
    void errorIsTheErrorOfAWorkflowFailedAmongTheEvents() {
        ErrorInfo error = ErrorInfo.of("java.lang.IllegalStateException", "out of stock");
        Append a = new Append("r1", 2, List.of(new WorkflowFailed("r1", 2, T0, error)), RunStatus.FAILED);

        assertThat(a.error()).isEqualTo(error);
        assertThat(a.output()).isNull();
    }

    @Test
    void eventsAndConsumedSignalsAreImmutableCopies() {
        List<Event> events = new ArrayList<>(List.of(scheduled("r1", 0)));
        List<Long> signals = new ArrayList<>(List.of(11L));
        Append a = new Append("r1", 0, events, RunStatus.RUNNING, signals, null);
        events.add(scheduled("r1", 1));
        signals.add(12L);

        assertThat(a.events()).hasSize(1);
        assertThat(a.consumedSignals()).containsExactly(11L);
        assertThatThrownBy(() -> a.events().add(scheduled("r1", 1))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void runIdAndStatusAreRequired() {
        assertThatThrownBy(() -> new Append(null, 0, List.of(), RunStatus.RUNNING))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("runId");
        assertThatThrownBy(() -> new Append("r1", 0, List.of(), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("status");
    }

    @Test
    void newRunStartsItsLogWithWorkflowStartedAtSeqZero() {
        Payload input = new Payload("{\"sku\":\"a\"}", "com.acme.Order");
        Instant deadline = T0.plusSeconds(3600);
        NewRun run = new NewRun("r1", "order.fulfil.v1", input, T0, T0.plusSeconds(5), deadline, "default", 0);

        assertThat(run.startedEvent()).isEqualTo(new WorkflowStarted("r1", 0, T0, "order.fulfil.v1", input, deadline));
    }

    @Test
    void appendResultDistinguishesAConflictFromAMissingRun() {
        assertThat(new AppendResult(false, 5, false).isConflict()).isTrue();
        assertThat(new AppendResult(true, 6, false).isConflict()).isFalse();
        assertThat(AppendResult.missing().isConflict()).isFalse();
        assertThat(AppendResult.missing().logLength()).isEqualTo(-1);
    }
}
