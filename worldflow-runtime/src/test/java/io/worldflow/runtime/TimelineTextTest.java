package io.worldflow.runtime;

import io.worldflow.Actors;
import io.worldflow.Payload;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTextTest {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final Payload ORDER = new Payload("{\"id\":\"o-1\"}", "Order");

    @Test
    void externallyCausedEventsSayWhoCausedThem() {
        WorkflowStarted started = new WorkflowStarted(
                "r", 0, T0, "order.v1", ORDER, null, null, null, null, null, Actors.APPLICATION, null);
        assertThat(TimelineText.detail(started)).isEqualTo("order.v1 {\"id\":\"o-1\"}, by application");

        WorkflowStarted scheduled = new WorkflowStarted(
                "r",
                0,
                T0,
                "report.v1",
                Payload.NULL,
                null,
                null,
                null,
                "nightly",
                T0,
                Actors.schedule("nightly"),
                null);
        assertThat(TimelineText.detail(scheduled))
                .isEqualTo("report.v1 null, by schedule:nightly for its fire at 2026-11-28T10:00:00Z");

        SignalReceived signal = new SignalReceived(
                "r", 3, T0, "approval", "approval", new Payload("true", null), T0, Actors.signalUrl("tok1"));
        assertThat(TimelineText.detail(signal)).isEqualTo("approval true, by signal-url:tok1");

        assertThat(TimelineText.detail(new WorkflowCancelRequested("r", 4, T0, "customer asked", T0, false, "cli:ada")))
                .isEqualTo("\"customer asked\", by cli:ada");
        assertThat(TimelineText.detail(new WorkflowCancelRequested("r", 4, T0, null, T0, true, "dashboard:ops")))
                .isEqualTo("terminate, by dashboard:ops");
        assertThat(TimelineText.detail(new WorkflowCancelRequested("r", 4, T0, "stuck", T0, true, null)))
                .isEqualTo("terminate: \"stuck\"");

        assertThat(TimelineText.detail(new WorkflowRetried("r", 5, T0, "charge", "fixed the key", "cli:ada")))
                .isEqualTo("from step charge \"fixed the key\", by cli:ada");
    }

    @Test
    void textACallerGaveCannotPassForAnotherLineOrAnotherActor() {
        String forgedLine = "fraud suspected\n    9  +    1 ms  WorkflowCompleted       \"approved\", by cfo";
        String detail =
                TimelineText.detail(new WorkflowCancelRequested("r", 7, T0, forgedLine, T0, false, "dashboard:otto"));
        assertThat(detail)
                .doesNotContain("\n")
                .isEqualTo("\"fraud suspected\\n    9  +    1 ms  WorkflowCompleted       \\\"approved\\\", by cfo\","
                        + " by dashboard:otto");
        assertThat(TimelineText.detail(
                        new WorkflowCancelRequested("r", 7, T0, "duplicate, by manager:alice", T0, false, "ops")))
                .isEqualTo("\"duplicate, by manager:alice\", by ops");
        // an actor stored before actors were checked for them, or with more than a name's characters
        assertThat(TimelineText.detail(new WorkflowCancelRequested("r", 7, T0, null, T0, false, "eve\n 9 + 0 ms")))
                .isEqualTo("by \"eve\\n 9 + 0 ms\"");
        assertThat(TimelineText.detail(new WorkflowCancelRequested("r", 7, T0, null, T0, false, "x, by cfo")))
                .isEqualTo("by \"x, by cfo\"");
        // an error's message that spans lines stays on its event's
        assertThat(TimelineText.render(
                                List.of(new WorkflowCancelRequested("r", 0, T0, "a\r\nb\u001bc", T0, false, null)))
                        .lines()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void eventsWithoutAKnownActorSayNothingOfOne() {
        WorkflowStarted child =
                new WorkflowStarted("c", 0, T0, "label.v1", ORDER, null, "parent-1", null, null, null, null, null);
        assertThat(TimelineText.detail(child)).isEqualTo("label.v1 {\"id\":\"o-1\"}, child of parent-1");
        assertThat(TimelineText.detail(new SignalReceived("r", 3, T0, "w", "approval", Payload.NULL, T0, null)))
                .isEqualTo("approval null");
        assertThat(TimelineText.detail(new WorkflowCancelRequested("r", 4, T0, null, T0, false, null)))
                .isEmpty();
    }

    @Test
    void aTimelineIsOneLinePerEventWithItsTimeSinceTheStart() {
        List<io.worldflow.event.Event> timeline = List.of(
                new WorkflowStarted("r", 0, T0, "order.v1", ORDER, null, null, null, null, null, "cli:ada", null),
                new StepCompleted("r", 1, T0.plusMillis(42), "charge", 1, new Payload("7", null)));
        assertThat(TimelineText.render(timeline).lines())
                .containsExactly(
                        "    0  +    0 ms  WorkflowStarted        order.v1 {\"id\":\"o-1\"}, by cli:ada",
                        "    1  +   42 ms  StepCompleted          charge -> 7");
        assertThat(TimelineText.render(List.of())).isEmpty();
    }

    @Test
    void aLongRunOrALongEventTypeKeepsEveryDetailInOneColumn() {
        List<io.worldflow.event.Event> timeline = List.of(
                new WorkflowStarted("r", 0, T0, "order.v1", ORDER, null, null, null, null, null, "cli:ada", null),
                new StepCompleted("r", 1, T0.plusMillis(42), "charge", 1, new Payload("7", null)),
                new WorkflowCancelRequested(
                        "r", 2, T0.plusMillis(798_294), "customer left", T0.plusMillis(798_000), false, "cli:ada"));
        List<String> lines = TimelineText.render(timeline).lines().toList();
        assertThat(lines)
                .containsExactly(
                        "    0  +     0 ms  WorkflowStarted         order.v1 {\"id\":\"o-1\"}, by cli:ada",
                        "    1  +    42 ms  StepCompleted           charge -> 7",
                        "    2  +798294 ms  WorkflowCancelRequested " + TimelineText.detail(timeline.get(2)));
    }
}
