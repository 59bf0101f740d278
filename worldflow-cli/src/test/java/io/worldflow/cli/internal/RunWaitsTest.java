package io.worldflow.cli.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.event.Event;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a run stands by its log: what it waits on while it runs, and nothing once it has ended. */
class RunWaitsTest {

    private static final Instant T0 = Instant.parse("2026-11-01T10:00:00Z");

    private static List<Event> waiting() {
        List<Event> events = new ArrayList<>();
        events.add(new WorkflowStarted("r", 0, T0, "wf", new Payload("1", null), null, null, null, null, null, null));
        events.add(new TimerScheduled("r", 1, T0, "a/0/nap", "nap", T0.plus(Duration.ofHours(1))));
        events.add(new SignalRequested("r", 2, T0, "a/1/approval", "approval", null));
        return events;
    }

    @Test
    void aRunningRunWaitsOnWhatItOpened() {
        assertThat(RunWaits.of(waiting()).waits())
                .extracting(RunWaits.Wait::describe)
                .containsExactly("timer 'nap' at " + Table.cell(T0.plus(Duration.ofHours(1))), "signal 'approval'");
    }

    @Test
    void aRunThatEndedWaitsOnNothing() {
        List<Event> terminated = waiting();
        terminated.add(new WorkflowCancelRequested("r", 3, T0, "stuck", T0, true, "cli"));
        terminated.add(new WorkflowCanceled("r", 4, T0));
        assertThat(RunWaits.of(terminated).waits()).isEmpty();

        List<Event> failed = waiting();
        failed.add(new WorkflowFailed("r", 3, T0, ErrorInfo.of("java.lang.IllegalStateException", "deadline")));
        assertThat(RunWaits.of(failed).waits()).isEmpty();
        // retried, it runs again: what it had not heard of it waits on still, and what it asks for next
        failed.add(new WorkflowRetried("r", 4, T0, null, "fixed"));
        failed.add(new SignalRequested("r", 5, T0, "again", "again", null));
        assertThat(RunWaits.of(failed).waits())
                .extracting(RunWaits.Wait::name)
                .containsExactly("nap", "approval", "again");
    }

    @Test
    void aRunOfAChainNamesTheRunItContinuesAndTheOneItContinuedAs() {
        List<Event> events = new ArrayList<>();
        events.add(new WorkflowStarted(
                "sub~2", 0, T0, "wf", new Payload("2", null), null, null, "sub", null, null, null, null, null, null));
        events.add(new WorkflowContinuedAsNew("sub~2", 1, T0, "sub~3", new Payload("3", null)));

        RunWaits waits = RunWaits.of(events);
        assertThat(waits.continuedFrom()).isEqualTo("sub");
        assertThat(waits.continuedAs()).isEqualTo("sub~3");
        assertThat(waits.waits()).isEmpty();
        assertThat(RunWaits.of(waiting()).continuedAs()).isNull();
    }
}
