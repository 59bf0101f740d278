package io.worldflow.cli.internal;

import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.event.Event;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run's log says about where it stands beyond its status: the signals, timers and child runs it waits on (each
 * opened and not yet closed, and none once the run has ended), the run that started it and the schedule that did. Read from the events, so that the
 * world and a dashboard give the same answer.
 *
 * @param waits        what it waits on, in the order it began to
 * @param parent       the run that started it as a child, or null
 * @param schedule     the schedule that started it, or null
 * @param scheduledFor that schedule's fire time, or null
 * @param continuedFrom the run of its continue-as-new chain it continues, or null
 * @param continuedAs   the run it continued as (it ended so), or null
 */
public record RunWaits(
        List<Wait> waits,
        String parent,
        String schedule,
        Instant scheduledFor,
        String continuedFrom,
        String continuedAs) {

    /**
     * One thing waited on.
     *
     * @param kind  {@code signal}, {@code timer} or {@code child}
     * @param name  the signal's or timer's name, or the child's run id
     * @param until when the wait ends by itself (a signal's time limit, a timer's fire time), or null
     * @param about more: a child's workflow, else null
     */
    public record Wait(String kind, String name, Instant until, String about) {

        /** The wait in words: {@code signal 'approval' until …}, {@code timer 'cool-off' at …}, {@code child run …}. */
        String describe() {
            return switch (kind) {
                case "signal" -> "signal '" + name + "'" + (until == null ? "" : " until " + Table.cell(until));
                case "timer" -> "timer '" + name + "' at " + Table.cell(until);
                default -> "child run " + name + " of " + about;
            };
        }
    }

    public RunWaits {
        waits = List.copyOf(waits);
    }

    static RunWaits of(List<Event> events) {
        Map<String, Wait> open = new LinkedHashMap<>();
        String parent = null;
        String schedule = null;
        Instant scheduledFor = null;
        String continuedFrom = null;
        String continuedAs = null;
        boolean ended = false;
        for (Event e : events) {
            switch (e) {
                case WorkflowStarted s -> {
                    parent = s.parent();
                    schedule = s.schedule();
                    scheduledFor = s.scheduledFor();
                    continuedFrom = s.continuedFrom();
                }
                case SignalRequested s -> open.put(s.waitId(), new Wait("signal", s.name(), s.timeoutAt(), null));
                case SignalReceived s -> open.remove(s.waitId());
                case SignalTimedOut s -> open.remove(s.waitId());
                case TimerScheduled t -> open.put(t.timerId(), new Wait("timer", t.name(), t.fireAt(), null));
                case TimerFired t -> open.remove(t.timerId());
                case ChildWorkflowStarted c ->
                    open.put(c.childId(), new Wait("child", c.childRunId(), null, c.workflow()));
                case ChildWorkflowCompleted c -> open.remove(c.childId());
                case ChildWorkflowFailed c -> open.remove(c.childId());
                case ChildWorkflowCanceled c -> open.remove(c.childId());
                // it lost a race, or its scope was canceled: it will not be waited on
                case PrimitiveCanceled c -> open.remove(c.primitiveId());
                // a run that has ended waits on nothing; retried, it waits again on what it had not heard of
                case WorkflowCompleted c -> ended = true;
                case WorkflowFailed f -> ended = true;
                case WorkflowCanceled c -> ended = true;
                case WorkflowContinuedAsNew c -> {
                    ended = true;
                    continuedAs = c.successorRunId();
                }
                case WorkflowRetried r -> ended = false;
                default -> {}
            }
        }
        return new RunWaits(
                ended ? List.of() : new ArrayList<>(open.values()),
                parent,
                schedule,
                scheduledFor,
                continuedFrom,
                continuedAs);
    }
}
