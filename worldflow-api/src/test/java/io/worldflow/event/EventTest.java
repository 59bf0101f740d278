package io.worldflow.event;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void typeIsTheRecordsSimpleName() {
        assertThat(new StepStarted("r1", 1, T0, "charge", 1).type()).isEqualTo("StepStarted");
        assertThat(new WorkflowCanceled("r1", 9, T0).type()).isEqualTo("WorkflowCanceled");
    }

    @Test
    void onlyCompletedFailedAndCanceledAreTerminal() {
        assertThat(new WorkflowCompleted("r1", 3, T0, Payload.NULL).isTerminal())
                .isTrue();
        assertThat(new WorkflowFailed("r1", 3, T0, ErrorInfo.of("x", null)).isTerminal())
                .isTrue();
        assertThat(new WorkflowCanceled("r1", 3, T0).isTerminal()).isTrue();
        assertThat(new WorkflowCancelRequested("r1", 3, T0, "user", T0).isTerminal())
                .isFalse();
        assertThat(new StepFailed("r1", 3, T0, "s", 1, ErrorInfo.of("x", null)).isTerminal())
                .isFalse();
    }

    @Test
    void everyEventRequiresARunIdAnInstantAndANonNegativeSeq() {
        assertThatThrownBy(() -> new TimerFired(null, 0, T0, "t"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("runId");
        assertThatThrownBy(() -> new TimerFired("r1", 0, null, "t"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("at");
        assertThatThrownBy(() -> new TimerFired("r1", -1, T0, "t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void primitiveEventsExposeTheirPrimitiveId() {
        assertThat(new StepScheduled("r1", 1, T0, "labels/3/label", "label").primitiveId())
                .isEqualTo("labels/3/label");
        assertThat(new TimerScheduled("r1", 1, T0, "cool-off", "cool-off", T0).primitiveId())
                .isEqualTo("cool-off");
        assertThat(new SignalRequested("r1", 1, T0, "approval~2", "approval", null).primitiveId())
                .isEqualTo("approval~2");
        assertThat(new ParallelStarted("r1", 1, T0, "labels", "labels", 3).primitiveId())
                .isEqualTo("labels");
        assertThat(new MarkerRecorded("r1", 1, T0, "now", "now", Payload.NULL).primitiveId())
                .isEqualTo("now");
    }
}
