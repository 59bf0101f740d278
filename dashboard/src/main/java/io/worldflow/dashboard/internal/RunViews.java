package io.worldflow.dashboard.internal;

import io.worldflow.ChainReport;
import io.worldflow.ErrorInfo;
import io.worldflow.QueueInfo;
import io.worldflow.RunInfo;
import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.event.Event;
import io.worldflow.event.PrimitiveCanceled;
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
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.RevokedUrl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How runs look in the API: a summary for lists, and the full picture of one run. */
final class RunViews {

    private RunViews() {}

    static Map<String, Object> chain(ChainReport report) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", report.runId());
        m.put("intact", report.intact());
        m.put("logLength", report.logLength());
        m.put("chainedFrom", report.chainedFrom());
        m.put("head", report.head());
        m.put("brokenAt", report.brokenAt());
        m.put("problem", report.problem());
        return m;
    }

    static Map<String, Object> summary(RunInfo r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", r.runId());
        m.put("workflow", r.workflow());
        m.put("status", r.status().name());
        m.put("createdAt", r.createdAt());
        m.put("updatedAt", r.updatedAt());
        m.put("held", r.isHeld());
        m.put("heldSince", r.heldSince());
        m.put("heldReason", r.isHeld() ? r.held().summary() : null);
        m.put("error", r.error() == null ? null : r.error().summary());
        // not secret: the world stores them in clear to index them, so every role sees them
        m.put("searchAttributes", SearchViews.values(r.searchAttributes()));
        return m;
    }

    /**
     * A run with its payloads, search attributes (with the type of each), error, steps (with attempts), pending timers,
     * signal waits and pending signals.
     *
     * @param queue its queue when the run is pending and the queue has limits, else null
     */
    static Map<String, Object> detail(
            RunInfo r,
            List<Event> events,
            List<PendingSignal> pending,
            List<RevokedUrl> revoked,
            QueueInfo queue,
            Map<String, String> signalTypes,
            JsonCodec codec,
            boolean secrets) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", r.runId());
        m.put("workflow", r.workflow());
        m.put("status", r.status().name());
        m.put("createdAt", r.createdAt());
        m.put("updatedAt", r.updatedAt());
        m.put("availableAt", r.availableAt());
        m.put("deadline", r.deadline());
        m.put("queue", r.queue());
        m.put("key", r.key());
        m.put("waitingInQueue", queue == null ? null : QueueViews.view(queue));
        m.put("priority", r.priority());
        m.put("logLength", r.logLength());
        m.put("searchAttributes", SearchViews.values(r.searchAttributes()));
        m.put("searchAttributeTypes", SearchViews.types(r.searchAttributes()));
        // a run a schedule started names it and the fire time in its first event; null for any other run
        WorkflowStarted started = !events.isEmpty() && events.getFirst() instanceof WorkflowStarted w ? w : null;
        // a run of a continue-as-new chain names its neighbours; the one it continued as, the chain's newest run
        m.put("continuedFrom", started == null ? null : started.continuedFrom());
        m.put(
                "continuedAs",
                events.isEmpty() || !(events.getLast() instanceof WorkflowContinuedAsNew c)
                        ? null
                        : c.successorRunId());
        m.put("schedule", started == null ? null : started.schedule());
        m.put("scheduledFor", started == null ? null : started.scheduledFor());
        // the trace its spans belong to, for finding the run in a tracing tool; null when it was started untraced
        String traceParent = started == null ? null : started.traceParent();
        m.put("traceId", traceId(traceParent));
        m.put("traceParent", traceParent);
        m.put("traceState", started == null ? null : started.traceState());
        m.put("input", Json.payload(r.input(), codec, secrets));
        m.put("output", r.output() == null ? null : Json.payload(r.output(), codec, secrets));
        m.put("error", error(r.error()));
        m.put("held", error(r.held()));
        m.put("heldSince", r.heldSince());
        Map<String, Object> cancel = null;
        if (r.cancelRequest() != null) {
            cancel = new LinkedHashMap<>();
            cancel.put("reason", r.cancelRequest().reason()); // null when none was given, not the text "null"
            cancel.put("requestedAt", r.cancelRequest().requestedAt());
            cancel.put("terminate", r.cancelRequest().terminate());
            cancel.put("actor", r.cancelRequest().actor());
        }
        m.put("cancelRequest", cancel);
        // a run that has ended waits for nothing; what was in flight as it ended never finished
        boolean ended = r.status().isTerminal();
        m.put("steps", steps(events, ended));
        m.put("pendingTimers", ended ? List.of() : pendingTimers(events));
        m.put("signalWaits", ended ? List.of() : signalWaits(events));
        // the signals the workflow declares a type of, as this process registers it: empty when it does not
        m.put("signalTypes", signalTypes);
        m.put("childWaits", ended ? List.of() : childWaits(events));
        List<Map<String, Object>> signals = new ArrayList<>();
        for (PendingSignal s : pending) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("id", s.id());
            sm.put("name", s.name());
            sm.put("sentAt", s.sentAt());
            sm.put("actor", s.actor());
            sm.put("payload", Json.payload(s.payload(), codec, secrets));
            signals.add(sm);
        }
        m.put("pendingSignals", signals);
        m.put(
                "revokedSignalUrls",
                revoked.stream()
                        .map(u -> {
                            Map<String, Object> um = new LinkedHashMap<>();
                            um.put("tokenId", u.tokenId());
                            um.put("revokedAt", u.revokedAt());
                            um.put("actor", u.actor());
                            return um;
                        })
                        .toList());
        return m;
    }

    /**
     * The trace id of a W3C {@code traceparent} ({@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}), or null
     * when there is none or it is not one: a version this does not know may lay its fields out otherwise, and an id of
     * zeros names no trace.
     */
    static String traceId(String traceParent) {
        if (traceParent == null) {
            return null;
        }
        String[] parts = traceParent.strip().split("-", -1);
        String version = parts[0];
        if (parts.length < 4
                || !lowerHex(version, 2)
                || version.equals("ff")
                || version.equals("00") && parts.length != 4) {
            return null;
        }
        String id = parts[1];
        return lowerHex(id, 32) && !id.chars().allMatch(c -> c == '0') ? id : null;
    }

    private static boolean lowerHex(String s, int length) {
        return s.length() == length && s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    static Map<String, Object> error(ErrorInfo e) {
        if (e == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", e.type());
        m.put("message", e.message());
        m.put("stackTrace", e.stackTrace());
        m.put("causeTypes", e.causeTypes());
        return m;
    }

    /**
     * Each step in the order first scheduled: its state and how many attempts started. Of a run that has {@code ended},
     * a step still scheduled, running or waiting to retry is {@code unfinished}: the run ended first (it was canceled,
     * terminated, or failed on its deadline), and the step's attempt, if one ran, has no recorded outcome.
     */
    private static List<Map<String, Object>> steps(List<Event> events, boolean ended) {
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        for (Event e : events) {
            switch (e) {
                case StepScheduled s -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("stepId", s.stepId());
                    m.put("name", s.name());
                    m.put("state", "scheduled");
                    m.put("attempts", 0);
                    m.put("error", null);
                    byId.put(s.stepId(), m);
                }
                case StepStarted s -> update(byId, s.stepId(), "running").put("attempts", s.attempt());
                case StepRetrying s ->
                    update(byId, s.stepId(), "retrying").put("error", s.error().summary());
                case StepCompleted s -> update(byId, s.stepId(), "completed").put("error", null);
                case StepFailed s ->
                    update(byId, s.stepId(), "failed").put("error", s.error().summary());
                case WorkflowRetried w
                when w.stepId() != null && byId.containsKey(w.stepId()) -> update(byId, w.stepId(), "scheduled");
                default -> {}
            }
        }
        if (ended) {
            for (Map<String, Object> step : byId.values()) {
                if (!"completed".equals(step.get("state")) && !"failed".equals(step.get("state"))) {
                    step.put("state", "unfinished");
                }
            }
        }
        return new ArrayList<>(byId.values());
    }

    private static Map<String, Object> update(Map<String, Map<String, Object>> byId, String stepId, String state) {
        Map<String, Object> m = byId.computeIfAbsent(stepId, id -> {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("stepId", id);
            n.put("attempts", 0);
            return n;
        });
        m.put("state", state);
        return m;
    }

    private static List<Map<String, Object>> pendingTimers(List<Event> events) {
        Map<String, TimerScheduled> open = new LinkedHashMap<>();
        for (Event e : events) {
            if (e instanceof TimerScheduled t) {
                open.put(t.timerId(), t);
            } else if (e instanceof TimerFired f) {
                open.remove(f.timerId());
            } else if (e instanceof PrimitiveCanceled c) {
                open.remove(c.primitiveId()); // it lost a race: it will not fire
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (TimerScheduled t : open.values()) {
            out.add(Map.of("timerId", t.timerId(), "name", t.name(), "fireAt", t.fireAt()));
        }
        return out;
    }

    /** The child runs started and not yet heard the end of. */
    private static List<Map<String, Object>> childWaits(List<Event> events) {
        Map<String, ChildWorkflowStarted> open = new LinkedHashMap<>();
        for (Event e : events) {
            switch (e) {
                case ChildWorkflowStarted c -> open.put(c.childId(), c);
                case ChildWorkflowCompleted c -> open.remove(c.childId());
                case ChildWorkflowFailed c -> open.remove(c.childId());
                case ChildWorkflowCanceled c -> open.remove(c.childId());
                case PrimitiveCanceled c -> open.remove(c.primitiveId());
                default -> {}
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (ChildWorkflowStarted c : open.values()) {
            out.add(Map.of("childId", c.childId(), "childRunId", c.childRunId(), "workflow", c.workflow()));
        }
        return out;
    }

    private static List<Map<String, Object>> signalWaits(List<Event> events) {
        Map<String, SignalRequested> open = new LinkedHashMap<>();
        for (Event e : events) {
            if (e instanceof SignalRequested s) {
                open.put(s.waitId(), s);
            } else if (e instanceof SignalReceived s) {
                open.remove(s.waitId());
            } else if (e instanceof SignalTimedOut s) {
                open.remove(s.waitId());
            } else if (e instanceof PrimitiveCanceled c) {
                open.remove(c.primitiveId());
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (SignalRequested s : open.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("waitId", s.waitId());
            m.put("name", s.name());
            m.put("timeoutAt", s.timeoutAt());
            out.add(m);
        }
        return out;
    }
}
