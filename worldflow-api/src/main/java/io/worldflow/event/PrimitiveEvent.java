package io.worldflow.event;

/** An event about one primitive of the workflow code (a step, timer, signal wait, fan-out, marker, child run, scope or race). */
public sealed interface PrimitiveEvent extends Event
        permits StepScheduled,
                StepStarted,
                StepCompleted,
                StepFailed,
                StepRetrying,
                TimerScheduled,
                TimerFired,
                SignalRequested,
                SignalReceived,
                SignalTimedOut,
                ParallelStarted,
                ParallelCompleted,
                MarkerRecorded,
                SearchAttributesUpdated,
                ChildWorkflowStarted,
                ChildWorkflowCompleted,
                ChildWorkflowFailed,
                ChildWorkflowCanceled,
                ScopeStarted,
                RaceStarted,
                RaceWon,
                PrimitiveCanceled {

    /** The primitive's deterministic id: a path of names and counters, e.g. {@code labels/3/label}. */
    String primitiveId();
}
