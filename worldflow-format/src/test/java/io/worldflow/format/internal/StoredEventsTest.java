package io.worldflow.format.internal;

import io.worldflow.Payload;
import io.worldflow.event.Event;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static io.worldflow.format.internal.StoredEvents.event;
import static io.worldflow.format.internal.StoredEvents.number;
import static io.worldflow.format.internal.StoredEvents.payload;
import static io.worldflow.format.internal.StoredEvents.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoredEventsTest {

    /** As the format declares a step's start. */
    record Began(String runId, long seq, Instant at, String stepId, int attempt) {}

    /** {@code attempt} renamed. */
    record Renamed(String runId, long seq, Instant at, String stepId, int attemptNumber) {}

    /** {@code attempt} made a long. */
    record Retyped(String runId, long seq, Instant at, String stepId, long attempt) {}

    /** A component added at the end. */
    record Grown(String runId, long seq, Instant at, String stepId, int attempt, Payload note) {}

    /** The run's id not first. */
    record Reordered(long seq, String runId, Instant at, String stepId, int attempt) {}

    private static StoredEvents.Declared began(Class<? extends Record> record) {
        return event(record.getSimpleName(), record, text("stepId"), number("attempt", 1));
    }

    @Test
    void aRecordAsDeclaredMatches() {
        assertThat(StoredEvents.mismatches(began(Began.class))).isEmpty();
    }

    @Test
    void aRenamedComponentIsAMismatchNamingTheComponentAndTheDeclaredField() {
        assertThat(StoredEvents.mismatches(began(Renamed.class)))
                .containsExactly("Renamed: component 5 is int attemptNumber, declared int attempt");
    }

    @Test
    void aComponentOfAnotherTypeIsAMismatch() {
        assertThat(StoredEvents.mismatches(began(Retyped.class)))
                .containsExactly("Retyped: component 5 is long attempt, declared int attempt");
    }

    @Test
    void anAddedComponentOrADeclaredFieldTheRecordLacksIsAMismatch() {
        assertThat(StoredEvents.mismatches(began(Grown.class)))
                .containsExactly("Grown: component 6, Payload note, is not declared");
        assertThat(StoredEvents.mismatches(
                        event("Began", Began.class, text("stepId"), number("attempt", 1), payload("note"))))
                .containsExactly("Began: declared Payload note as component 6, which it has not");
    }

    @Test
    void theRunSeqAndTimeMustComeFirstInThatOrder() {
        assertThat(StoredEvents.mismatches(began(Reordered.class)))
                .containsExactly(
                        "Reordered: component 1 is long seq, declared String runId",
                        "Reordered: component 2 is String runId, declared long seq");
    }

    @Test
    void anEventIsStoredUnderItsRecordsName() {
        assertThat(StoredEvents.mismatches(event("Started", Began.class, text("stepId"), number("attempt", 1))))
                .containsExactly("Started: its record is named Began, and an event is stored under its record's name");
    }

    @Test
    void theCheckFailsNamingEveryMismatchAndEveryRecordWithoutADeclaration() {
        List<StoredEvents.Declared> table = List.of(began(Began.class), began(Renamed.class), began(Began.class));

        assertThatThrownBy(() -> StoredEvents.check(table, Set.of(Began.class, Renamed.class, Grown.class)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stored ones would not read back")
                .hasMessageContaining("Renamed: component 5 is int attemptNumber, declared int attempt")
                .hasMessageContaining("Began: declared twice")
                .hasMessageContaining("Grown: an event record the stored format does not declare");
        assertThatThrownBy(() -> StoredEvents.check(List.of(began(Began.class)), Set.of()))
                .hasMessageContaining("Began: declared for " + Began.class.getName() + ", which is no event record");
    }

    @Test
    void everyEventRecordMatchesTheTableOfTheFormat() {
        assertThatCode(() -> StoredEvents.check(StoredEvents.TABLE, StoredEvents.eventRecords()))
                .doesNotThrowAnyException();
        assertThat(StoredEvents.eventRecords())
                .hasSize(StoredEvents.TABLE.size())
                .allMatch(Event.class::isAssignableFrom);
    }

    @Test
    void aNumberIsLeftOutOnlyAtTheValueItsFieldDeclares() {
        EventShape started = EventShape.named("StepStarted");
        EventShape parallel = EventShape.named("ParallelStarted");

        assertThat(started.component("attempt").leftOut(1)).isTrue();
        assertThat(started.component("attempt").leftOut(0)).isFalse();
        assertThat(parallel.component("branches").leftOut(0)).isTrue();
        assertThat(parallel.component("branches").leftOut(1)).isFalse();
        assertThat(started.component("stepId").leftOut(null)).isTrue();
    }
}
