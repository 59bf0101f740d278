package io.worldflow.runtime;

import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.RaceStarted;
import io.worldflow.event.RaceWon;
import io.worldflow.event.ScopeStarted;
import io.worldflow.event.SearchAttributesUpdated;
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
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;

import java.util.List;

/** A run's timeline as text for a terminal: one line per event, as the demo, the CLI and the test kit print it. */
public final class TimelineText {

    private TimelineText() {}

    /**
     * The timeline, one line per event: its seq, its time since the run began, its type and its {@link #detail}. An
     * empty timeline is an empty text.
     */
    public static String render(List<Event> timeline) {
        if (timeline.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        long start = timeline.getFirst().at().toEpochMilli();
        // columns as wide as this timeline needs (at least as a short run's), so that a long run or a long event type
        // does not push its details out of line
        int seqWidth = 3;
        int timeWidth = 5;
        int typeWidth = 22;
        for (Event e : timeline) {
            seqWidth = Math.max(seqWidth, Long.toString(e.seq()).length());
            timeWidth = Math.max(
                    timeWidth, Long.toString(e.at().toEpochMilli() - start).length());
            typeWidth = Math.max(typeWidth, e.type().length());
        }
        String line = "  %" + seqWidth + "d  +%" + timeWidth + "d ms  %-" + typeWidth + "s %s%n";
        for (Event e : timeline) {
            out.append(String.format(line, e.seq(), e.at().toEpochMilli() - start, e.type(), detail(e)));
        }
        return out.toString();
    }

    /**
     * What one event says, in a line: the step and its result, the signal and its payload, the error's summary, and
     * who caused it when something outside the run did (a start, a signal, a cancellation, a retry).
     */
    public static String detail(Event e) {
        return oneLine(text(e));
    }

    private static String text(Event e) {
        return switch (e) {
            case WorkflowStarted s ->
                by(
                                s.workflow() + " " + s.input().json()
                                        + (s.parent() == null ? "" : ", child of " + s.parent())
                                        + (s.continuedFrom() == null ? "" : ", continues " + s.continuedFrom()),
                                s.actor())
                        + (s.scheduledFor() == null ? "" : " for its fire at " + s.scheduledFor());
            case WorkflowCompleted c -> c.output().json();
            case WorkflowFailed f -> f.error().summary();
            case WorkflowCancelRequested c ->
                by(
                        (c.terminate() ? "terminate" : "")
                                + (c.terminate() && c.reason() != null ? ": " : "")
                                + (c.reason() == null ? "" : quoted(c.reason())),
                        c.actor());
            case WorkflowCanceled c -> "";
            case WorkflowContinuedAsNew c ->
                "continued as " + c.successorRunId() + " with " + c.input().json();
            case WorkflowRetried r ->
                by(
                        (r.stepId() == null ? "from the last step" : "from step " + r.stepId())
                                + (r.reason() == null ? "" : " " + quoted(r.reason())),
                        r.actor());
            case StepScheduled s -> s.stepId();
            case StepStarted s -> s.stepId() + " attempt " + s.attempt();
            case StepCompleted c -> c.stepId() + " -> " + c.result().json();
            case StepRetrying r ->
                r.stepId() + " attempt " + r.attempt() + " failed (" + r.error().message() + "), retry at +"
                        + (r.retryAt().toEpochMilli() - r.at().toEpochMilli()) + " ms";
            case StepFailed f -> f.stepId() + " " + f.error().summary();
            case TimerScheduled t -> t.timerId() + " fires at " + t.fireAt();
            case TimerFired t -> t.timerId();
            case SignalRequested s -> s.name() + (s.timeoutAt() == null ? "" : " until " + s.timeoutAt());
            case SignalReceived s -> by(s.name() + " " + s.payload().json(), s.actor());
            case SignalTimedOut s -> s.name();
            case ParallelStarted p -> p.parallelId() + " x" + p.branches();
            case ParallelCompleted p -> p.parallelId();
            case MarkerRecorded m -> m.markerId() + " = " + m.value().json();
            case SearchAttributesUpdated u -> String.join(", ", u.attributes());
            case ChildWorkflowStarted c -> c.childId() + ": run " + c.childRunId() + " of " + c.workflow();
            case ChildWorkflowCompleted c ->
                c.childRunId() + " -> " + c.result().json();
            case ChildWorkflowFailed f -> f.childRunId() + " " + f.error().summary();
            case ChildWorkflowCanceled c -> c.childRunId() + " canceled";
            case ScopeStarted s -> s.scopeId() + (s.detached() == 0 ? " (async)" : " (detached)");
            case RaceStarted r -> r.raceId() + " between " + String.join(", ", r.contenders());
            case RaceWon w -> w.raceId() + " won by " + w.winnerId();
            case PrimitiveCanceled c -> c.primitiveId() + " canceled: " + c.reason();
        };
    }

    /**
     * {@code text}, then who caused the event ({@link io.worldflow.Actors}) when that is known: quoted when it holds
     * more than a name's characters, so that no actor reads as another's.
     */
    private static String by(String text, String actor) {
        if (actor == null) {
            return text;
        }
        return text + (text.isEmpty() ? "" : ", ") + "by " + (actor.matches("[\\w.:@/+#-]+") ? actor : quoted(actor));
    }

    /** Free text a caller gave (a reason), in double quotes with quotes and backslashes escaped. */
    private static String quoted(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /**
     * The line with its control characters escaped as in Java source (a line break as backslash and n): an error's
     * message, a reason or a name can never start a line of its own and pass for another event.
     */
    static String oneLine(String line) {
        StringBuilder out = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (Character.isISOControl(c)) {
                if (out == null) {
                    out = new StringBuilder(line.length() + 8).append(line, 0, i);
                }
                switch (c) {
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> out.append(String.format("\\u%04x", (int) c));
                }
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? line : out.toString();
    }
}
