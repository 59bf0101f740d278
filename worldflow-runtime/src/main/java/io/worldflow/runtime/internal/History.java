package io.worldflow.runtime.internal;

import io.worldflow.event.ChildWorkflowCanceled;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.PrimitiveEvent;
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
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's recorded history, indexed for replay: each primitive's events by id, and the order in which
 * primitives were first reached within each scope (the root, or one branch of a fan-out), which is
 * what the determinism check compares the code against.
 */
final class History {

    /** The kinds of primitive, as the determinism check compares them. */
    enum Kind {
        STEP,
        TIMER,
        SIGNAL,
        PARALLEL,
        MARKER,
        CHILD,
        SCOPE,
        RACE,
        SEARCH
    }

    /** One primitive's recorded events, in log order. */
    static final class Recorded {
        final String id;
        final Kind kind;
        final String name;
        final List<PrimitiveEvent> events = new ArrayList<>(4);

        Recorded(String id, Kind kind, String name) {
            this.id = id;
            this.kind = kind;
            this.name = name;
        }

        <E extends PrimitiveEvent> E last(Class<E> type) {
            for (int i = events.size() - 1; i >= 0; i--) {
                if (type.isInstance(events.get(i))) {
                    return type.cast(events.get(i));
                }
            }
            return null;
        }

        <E extends PrimitiveEvent> E first(Class<E> type) {
            for (PrimitiveEvent e : events) {
                if (type.isInstance(e)) {
                    return type.cast(e);
                }
            }
            return null;
        }

        boolean has(Class<? extends PrimitiveEvent> type) {
            return first(type) != null;
        }

        /**
         * Attempts before the run was retried from this step: they keep their numbers, and the step gets a
         * fresh retry budget after them. 0 when the run was never retried from here.
         */
        int attemptsBeforeRetry;

        /** Voids the step's final failure: a {@link WorkflowRetried} runs it again. */
        void reopen() {
            for (PrimitiveEvent e : events) {
                if (e instanceof StepStarted s) {
                    attemptsBeforeRetry = Math.max(attemptsBeforeRetry, s.attempt());
                } else if (e instanceof StepFailed f) {
                    attemptsBeforeRetry = Math.max(attemptsBeforeRetry, f.attempt());
                }
            }
            events.removeIf(e -> e instanceof StepFailed);
        }
    }

    private final WorkflowStarted started;
    private final int size;
    private final Map<String, Recorded> byId = new HashMap<>();
    private final Map<String, List<Recorded>> byScope = new HashMap<>();
    private final List<Recorded> children = new ArrayList<>();

    private History(List<Event> events) {
        if (events.isEmpty() || !(events.getFirst() instanceof WorkflowStarted ws)) {
            throw new IllegalStateException("a run's log must begin with WorkflowStarted");
        }
        this.started = ws;
        this.size = events.size();
        for (Event e : events) {
            if (e instanceof PrimitiveEvent p) {
                index(p);
            } else if (e instanceof WorkflowRetried r && r.stepId() != null && byId.containsKey(r.stepId())) {
                byId.get(r.stepId()).reopen();
            }
        }
    }

    static History of(List<Event> events) {
        return new History(events);
    }

    WorkflowStarted started() {
        return started;
    }

    /** Number of events in the log when it was read. */
    int size() {
        return size;
    }

    Recorded get(String id) {
        return byId.get(id);
    }

    /** The primitive reached at {@code position} within {@code scope}, or null past the recorded ones. */
    Recorded at(String scope, int position) {
        List<Recorded> order = byScope.get(scope);
        return order == null || position >= order.size() ? null : order.get(position);
    }

    /** The child primitives recorded, in the order they were first reached. */
    List<Recorded> children() {
        return children;
    }

    /** How many primitives were reached within {@code scope}. */
    int count(String scope) {
        List<Recorded> order = byScope.get(scope);
        return order == null ? 0 : order.size();
    }

    private void index(PrimitiveEvent e) {
        Recorded r = byId.get(e.primitiveId());
        if (r == null) {
            if (e instanceof PrimitiveCanceled) {
                return; // a cancel of a primitive the log does not hold: nothing to replay it against
            }
            r = new Recorded(e.primitiveId(), kindOf(e), nameOf(e));
            byId.put(r.id, r);
            if (r.kind == Kind.CHILD) {
                children.add(r);
            }
            if (!Ids.isVersionMarker(r.id)) {
                byScope.computeIfAbsent(Ids.scopeOf(r.id), k -> new ArrayList<>())
                        .add(r);
            }
        }
        r.events.add(e);
    }

    static Kind kindOf(PrimitiveEvent e) {
        return switch (e) {
            case StepScheduled s -> Kind.STEP;
            case StepStarted s -> Kind.STEP;
            case StepCompleted s -> Kind.STEP;
            case StepFailed s -> Kind.STEP;
            case StepRetrying s -> Kind.STEP;
            case TimerScheduled t -> Kind.TIMER;
            case TimerFired t -> Kind.TIMER;
            case SignalRequested s -> Kind.SIGNAL;
            case SignalReceived s -> Kind.SIGNAL;
            case SignalTimedOut s -> Kind.SIGNAL;
            case ParallelStarted p -> Kind.PARALLEL;
            case ParallelCompleted p -> Kind.PARALLEL;
            case MarkerRecorded m -> Kind.MARKER;
            case SearchAttributesUpdated s -> Kind.SEARCH;
            case ChildWorkflowStarted c -> Kind.CHILD;
            case ChildWorkflowCompleted c -> Kind.CHILD;
            case ChildWorkflowFailed c -> Kind.CHILD;
            case ChildWorkflowCanceled c -> Kind.CHILD;
            case ScopeStarted s -> Kind.SCOPE;
            case RaceStarted r -> Kind.RACE;
            case RaceWon r -> Kind.RACE;
            case PrimitiveCanceled c -> null; // never a primitive's first event: it keeps the kind it has
        };
    }

    private static String nameOf(PrimitiveEvent e) {
        return switch (e) {
            case StepScheduled s -> s.name();
            case TimerScheduled t -> t.name();
            case SignalRequested s -> s.name();
            case ParallelStarted p -> p.name();
            case MarkerRecorded m -> m.kind();
            case ChildWorkflowStarted c -> c.name();
            case ScopeStarted s -> s.name();
            case RaceStarted r -> r.name();
            default -> Ids.nameOf(e.primitiveId());
        };
    }
}
