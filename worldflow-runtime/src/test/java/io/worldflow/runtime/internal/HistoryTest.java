package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.PrimitiveEvent;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HistoryTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Payload ONE = new Payload("1", "java.lang.Integer");
    private static final ErrorInfo BOOM = ErrorInfo.of("java.lang.IllegalStateException", "boom");

    /** Builds a log with dense seq numbers, starting with WorkflowStarted. */
    private static final class Log {
        final List<Event> events = new ArrayList<>();

        Log() {
            events.add(new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null));
        }

        long next() {
            return events.size();
        }

        Log add(Event e) {
            events.add(e);
            return this;
        }

        History history() {
            return History.of(events);
        }
    }

    /**
     * charge (retried once), cool-off timer, a version marker, a two-branch fan-out whose branches
     * finish out of order, a second charge, and a signal wait.
     */
    private static History sample() {
        Log log = new Log();
        log.add(new StepScheduled("r1", log.next(), T0, "charge", "charge"))
                .add(new StepStarted("r1", log.next(), T0, "charge", 1))
                .add(new StepRetrying("r1", log.next(), T0, "charge", 1, BOOM, T0.plusSeconds(1)))
                .add(new StepStarted("r1", log.next(), T0, "charge", 2))
                .add(new StepCompleted("r1", log.next(), T0, "charge", 2, ONE))
                .add(new TimerScheduled("r1", log.next(), T0, "cool-off", "cool-off", T0.plusSeconds(600)))
                .add(new MarkerRecorded("r1", log.next(), T0, "@version:fix-1", "version", ONE))
                .add(new TimerFired("r1", log.next(), T0, "cool-off"))
                .add(new ParallelStarted("r1", log.next(), T0, "labels", "labels", 2))
                .add(new StepScheduled("r1", log.next(), T0, "labels/0/label", "label"))
                .add(new StepScheduled("r1", log.next(), T0, "labels/1/label", "label"))
                .add(new StepCompleted("r1", log.next(), T0, "labels/1/label", 1, ONE))
                .add(new MarkerRecorded("r1", log.next(), T0, "labels/1/now", "now", ONE))
                .add(new StepCompleted("r1", log.next(), T0, "labels/0/label", 1, ONE))
                .add(new ParallelCompleted("r1", log.next(), T0, "labels"))
                .add(new StepScheduled("r1", log.next(), T0, "charge~2", "charge"))
                .add(new StepFailed("r1", log.next(), T0, "charge~2", 1, BOOM))
                .add(new WorkflowCancelRequested("r1", log.next(), T0, "user", T0))
                .add(new SignalRequested("r1", log.next(), T0, "approval", "approval", null));
        return log.history();
    }

    @Test
    void aLogMustBeginWithWorkflowStarted() {
        assertThatThrownBy(() -> History.of(List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("WorkflowStarted");
        assertThatThrownBy(() -> History.of(List.of(new StepScheduled("r1", 0, T0, "charge", "charge"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("WorkflowStarted");
    }

    @Test
    void startedAndSizeDescribeTheLogAsRead() {
        History h = sample();

        assertThat(h.started().workflow()).isEqualTo("w");
        assertThat(h.size()).isEqualTo(20);
    }

    @Test
    void aLogWithOnlyWorkflowStartedHasNothingRecorded() {
        History h = new Log().history();

        assertThat(h.size()).isEqualTo(1);
        assertThat(h.count("")).isZero();
        assertThat(h.at("", 0)).isNull();
        assertThat(h.get("charge")).isNull();
    }

    @Test
    void eachPrimitivesEventsAreIndexedByIdInLogOrder() {
        History.Recorded charge = sample().get("charge");

        assertThat(charge.kind).isEqualTo(History.Kind.STEP);
        assertThat(charge.name).isEqualTo("charge");
        assertThat(charge.events).extracting(PrimitiveEvent::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(charge.first(StepStarted.class).attempt()).isEqualTo(1);
        assertThat(charge.last(StepStarted.class).attempt()).isEqualTo(2);
        assertThat(charge.last(StepCompleted.class).result()).isEqualTo(ONE);
        assertThat(charge.has(StepFailed.class)).isFalse();
        assertThat(charge.last(StepFailed.class)).isNull();
    }

    @Test
    void theRootScopeListsPrimitivesInTheOrderFirstReached() {
        History h = sample();

        assertThat(h.count("")).isEqualTo(5);
        assertThat(List.of(h.at("", 0).id, h.at("", 1).id, h.at("", 2).id, h.at("", 3).id, h.at("", 4).id))
                .containsExactly("charge", "cool-off", "labels", "charge~2", "approval");
        assertThat(h.at("", 5)).isNull();
    }

    @Test
    void eachBranchHasItsOwnOrderRegardlessOfInterleaving() {
        History h = sample();

        assertThat(h.count("labels/0")).isEqualTo(1);
        assertThat(h.at("labels/0", 0).id).isEqualTo("labels/0/label");
        assertThat(h.count("labels/1")).isEqualTo(2);
        assertThat(h.at("labels/1", 0).id).isEqualTo("labels/1/label");
        assertThat(h.at("labels/1", 1).id).isEqualTo("labels/1/now");
        assertThat(h.count("labels/2")).isZero();
        assertThat(h.at("labels/2", 0)).isNull();
    }

    @Test
    void versionMarkersAreFoundByIdButTakeNoPlaceInTheOrder() {
        History h = sample();

        History.Recorded version = h.get("@version:fix-1");
        assertThat(version.kind).isEqualTo(History.Kind.MARKER);
        assertThat(version.name).isEqualTo("version");
        for (int i = 0; i < h.count(""); i++) {
            assertThat(h.at("", i).id).isNotEqualTo("@version:fix-1");
        }
    }

    @Test
    void namesComeFromTheFirstEventOrElseFromTheId() {
        History h = sample();

        assertThat(h.get("charge~2").name).isEqualTo("charge");
        assertThat(h.get("labels/0/label").name).isEqualTo("label");
        assertThat(h.get("labels").name).isEqualTo("labels");
        assertThat(h.get("labels").kind).isEqualTo(History.Kind.PARALLEL);
        assertThat(h.get("labels/1/now").name).isEqualTo("now");
        assertThat(h.get("approval").kind).isEqualTo(History.Kind.SIGNAL);
    }

    @Test
    void everyPrimitiveEventHasAKind() {
        assertThat(History.kindOf(new StepRetrying("r1", 1, T0, "s", 1, BOOM, T0)))
                .isEqualTo(History.Kind.STEP);
        assertThat(History.kindOf(new TimerFired("r1", 1, T0, "t"))).isEqualTo(History.Kind.TIMER);
        assertThat(History.kindOf(new SignalReceived("r1", 1, T0, "s", "s", ONE, T0)))
                .isEqualTo(History.Kind.SIGNAL);
        assertThat(History.kindOf(new SignalTimedOut("r1", 1, T0, "s", "s"))).isEqualTo(History.Kind.SIGNAL);
        assertThat(History.kindOf(new ParallelCompleted("r1", 1, T0, "p"))).isEqualTo(History.Kind.PARALLEL);
        assertThat(History.kindOf(new MarkerRecorded("r1", 1, T0, "m", "uuid", ONE)))
                .isEqualTo(History.Kind.MARKER);
    }
}
