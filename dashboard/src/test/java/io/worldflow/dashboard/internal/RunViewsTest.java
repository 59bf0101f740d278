package io.worldflow.dashboard.internal;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.event.Event;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.JsonCodec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a run's page is told of it: which recorded trace contexts name a trace, by the W3C traceparent's rules, and what
 * it is doing, which for a run that has ended is nothing.
 */
class RunViewsTest {

    static final String ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void theTraceIdIsTheSecondFieldOfAWellFormedTraceparent() {
        assertThat(RunViews.traceId("00-" + ID + "-00f067aa0ba902b7-01")).isEqualTo(ID);
        assertThat(RunViews.traceId("00-" + ID + "-00f067aa0ba902b7-00")).isEqualTo(ID);
        // a later version keeps the first four fields and may add more
        assertThat(RunViews.traceId("01-" + ID + "-00f067aa0ba902b7-01-extra")).isEqualTo(ID);
    }

    @Test
    void aMalformedOrEmptyTraceparentNamesNoTrace() {
        assertThat(RunViews.traceId(null)).isNull();
        assertThat(RunViews.traceId("")).isNull();
        assertThat(RunViews.traceId("not a traceparent")).isNull();
        assertThat(RunViews.traceId("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"))
                .isNull();
        assertThat(RunViews.traceId("00-" + ID.toUpperCase() + "-00f067aa0ba902b7-01"))
                .isNull();
        assertThat(RunViews.traceId("00-" + ID.substring(1) + "-00f067aa0ba902b7-01"))
                .isNull();
        assertThat(RunViews.traceId("ff-" + ID + "-00f067aa0ba902b7-01")).isNull();
        assertThat(RunViews.traceId("00-" + ID + "-00f067aa0ba902b7-01-extra")).isNull();
    }

    private static final Instant T0 = Instant.parse("2026-11-01T10:00:00Z");

    /** A run that sleeps in one branch and waits for a signal in another while its step "crunch" runs. */
    private static List<Event> inFlight(String runId) {
        Payload in = new Payload("\"x\"", null);
        return List.of(
                new WorkflowStarted(runId, 0, T0, "wf", in, null, null, null, null, null, null),
                new StepScheduled(runId, 1, T0, "prepare", "prepare"),
                new StepStarted(runId, 2, T0, "prepare", 1),
                new StepCompleted(runId, 3, T0, "prepare", 1, in),
                new TimerScheduled(runId, 4, T0, "a/0/rest", "rest", T0.plus(Duration.ofDays(1))),
                new SignalRequested(runId, 5, T0, "a/1/approval", "approval", null),
                new StepScheduled(runId, 6, T0, "crunch", "crunch"),
                new StepStarted(runId, 7, T0, "crunch", 1));
    }

    private static RunInfo info(String runId, RunStatus status, RunInfo.CancelRequest cancel) {
        return new RunInfo(
                runId,
                "wf",
                status,
                new Payload("\"x\"", null),
                null,
                null,
                T0,
                T0,
                T0,
                null,
                "default",
                0,
                8,
                cancel,
                null,
                null,
                null,
                SearchAttributes.empty(),
                null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> detail(RunInfo info, List<Event> events) {
        return RunViews.detail(info, events, List.of(), List.of(), null, java.util.Map.of(), new JsonCodec(), false);
    }

    @SuppressWarnings("unchecked")
    private static List<String> stepStates(Map<String, Object> detail) {
        return ((List<Map<String, Object>>) detail.get("steps"))
                .stream().map(s -> s.get("stepId") + " " + s.get("state")).toList();
    }

    @Test
    void aRunInFlightShowsItsRunningStepAndWhatItWaitsFor() {
        Map<String, Object> d = detail(info("live", RunStatus.RUNNING, null), inFlight("live"));

        assertThat(stepStates(d)).containsExactly("prepare completed", "crunch running");
        assertThat((List<?>) d.get("pendingTimers")).hasSize(1);
        assertThat((List<?>) d.get("signalWaits")).hasSize(1);
    }

    @Test
    void aRunThatEndedWaitsForNothingAndWhatRanAsItEndedIsUnfinished() {
        RunInfo.CancelRequest terminate = new RunInfo.CancelRequest("stuck", T0, true, "operator");
        List<Event> events = new java.util.ArrayList<>(inFlight("gone"));
        events.add(new WorkflowCancelRequested("gone", 8, T0, "stuck", T0, true, "operator"));
        events.add(new WorkflowCanceled("gone", 9, T0));

        Map<String, Object> d = detail(info("gone", RunStatus.CANCELED, terminate), events);

        assertThat(stepStates(d)).containsExactly("prepare completed", "crunch unfinished");
        assertThat((List<?>) d.get("pendingTimers")).isEmpty();
        assertThat((List<?>) d.get("signalWaits")).isEmpty();
        assertThat((List<?>) d.get("childWaits")).isEmpty();
    }
}
