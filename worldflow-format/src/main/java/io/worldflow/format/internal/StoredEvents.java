package io.worldflow.format.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
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

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the log stores of each event type, declared here and not read from the records: the name a type is stored
 * under and, after the run, seq and time every event has, its fields in order, each with what it holds and the
 * value it leaves out. A record must match its declaration exactly ({@link #check}, when the format is first used):
 * renaming, retyping, adding or moving a component would otherwise change the text written for new events and leave
 * the stored ones unreadable, without a word.
 */
final class StoredEvents {

    /** What a field holds, which decides how it is written and read; each kind is one Java type. */
    enum Kind {
        RUN_ID(String.class),
        SEQ(long.class),
        AT(Instant.class),
        STRING(String.class),
        INT(int.class),
        BOOL(boolean.class),
        STRINGS(List.class),
        INSTANT(Instant.class),
        PAYLOAD(Payload.class),
        ERROR(ErrorInfo.class);

        final Class<?> javaType;

        Kind(Class<?> javaType) {
            this.javaType = javaType;
        }
    }

    /**
     * One stored field: its name in the log, which is also its record component's name (the single-event form
     * writes components by name).
     *
     * @param absent the value a record leaves out and a reader gives the field when it is missing: null, or for a
     *               number the one declared
     */
    record Field(String name, Kind kind, Object absent) {}

    /** An event type as stored: {@code type} and then {@link #COMMON} and {@code fields}, in the record's order. */
    record Declared(String type, Class<? extends Record> record, List<Field> fields) {

        /** The record's components as stored, the common ones first. */
        List<Field> all() {
            return Stream.concat(COMMON.stream(), fields.stream()).toList();
        }
    }

    /** What every event holds first: its run and seq, which a log record leaves out, and its time. */
    static final List<Field> COMMON = List.of(
            new Field("runId", Kind.RUN_ID, null), new Field("seq", Kind.SEQ, null), new Field("at", Kind.AT, null));

    /** Every event type of format version 1. */
    static final List<Declared> TABLE = List.of(
            event(
                    "WorkflowStarted",
                    WorkflowStarted.class,
                    text("workflow"),
                    payload("input"),
                    instant("deadline"),
                    text("parent"),
                    text("continuedFrom"),
                    text("schedule"),
                    instant("scheduledFor"),
                    text("actor"),
                    texts("searchAttributes"),
                    text("traceParent"),
                    text("traceState")),
            event("WorkflowCompleted", WorkflowCompleted.class, payload("output")),
            event("WorkflowFailed", WorkflowFailed.class, error("error")),
            // a termination says so; a cancellation, by far the more common, leaves it out
            event(
                    "WorkflowCancelRequested",
                    WorkflowCancelRequested.class,
                    text("reason"),
                    instant("requestedAt"),
                    flag("terminate"),
                    text("actor")),
            event("WorkflowCanceled", WorkflowCanceled.class),
            event("WorkflowRetried", WorkflowRetried.class, text("stepId"), text("reason"), text("actor")),
            event("StepScheduled", StepScheduled.class, text("stepId"), text("name")),
            // an attempt of 1, the first, is left out: most steps succeed at their first
            event("StepStarted", StepStarted.class, text("stepId"), number("attempt", 1)),
            event(
                    "StepRetrying",
                    StepRetrying.class,
                    text("stepId"),
                    number("attempt", 1),
                    error("error"),
                    instant("retryAt")),
            event("StepCompleted", StepCompleted.class, text("stepId"), number("attempt", 1), payload("result")),
            event("StepFailed", StepFailed.class, text("stepId"), number("attempt", 1), error("error")),
            event("TimerScheduled", TimerScheduled.class, text("timerId"), text("name"), instant("fireAt")),
            event("TimerFired", TimerFired.class, text("timerId")),
            event("SignalRequested", SignalRequested.class, text("waitId"), text("name"), instant("timeoutAt")),
            event(
                    "SignalReceived",
                    SignalReceived.class,
                    text("waitId"),
                    text("name"),
                    payload("payload"),
                    instant("sentAt"),
                    text("actor")),
            event("SignalTimedOut", SignalTimedOut.class, text("waitId"), text("name")),
            event("ParallelStarted", ParallelStarted.class, text("parallelId"), text("name"), number("branches", 0)),
            event("ParallelCompleted", ParallelCompleted.class, text("parallelId")),
            event("MarkerRecorded", MarkerRecorded.class, text("markerId"), text("kind"), payload("value")),
            event("SearchAttributesUpdated", SearchAttributesUpdated.class, text("updateId"), texts("attributes")),
            event(
                    "ChildWorkflowStarted",
                    ChildWorkflowStarted.class,
                    text("childId"),
                    text("name"),
                    text("childRunId"),
                    text("workflow"),
                    text("parentClosePolicy")),
            event(
                    "ChildWorkflowCompleted",
                    ChildWorkflowCompleted.class,
                    text("childId"),
                    text("childRunId"),
                    payload("result")),
            event(
                    "ChildWorkflowFailed",
                    ChildWorkflowFailed.class,
                    text("childId"),
                    text("childRunId"),
                    error("error")),
            event("ChildWorkflowCanceled", ChildWorkflowCanceled.class, text("childId"), text("childRunId")),
            event("ScopeStarted", ScopeStarted.class, text("scopeId"), text("name"), number("detached", 0)),
            event("RaceStarted", RaceStarted.class, text("raceId"), text("name"), texts("contenders")),
            event("RaceWon", RaceWon.class, text("raceId"), number("winner", 0), text("winnerId")),
            event("PrimitiveCanceled", PrimitiveCanceled.class, text("primitiveId"), text("reason")),
            event("WorkflowContinuedAsNew", WorkflowContinuedAsNew.class, text("successorRunId"), payload("input")));

    private StoredEvents() {}

    static Declared event(String type, Class<? extends Record> record, Field... fields) {
        return new Declared(type, record, List.of(fields));
    }

    static Field text(String name) {
        return new Field(name, Kind.STRING, null);
    }

    static Field texts(String name) {
        return new Field(name, Kind.STRINGS, null);
    }

    static Field number(String name, int absent) {
        return new Field(name, Kind.INT, absent);
    }

    /** A flag, left out when false. */
    static Field flag(String name) {
        return new Field(name, Kind.BOOL, false);
    }

    static Field instant(String name) {
        return new Field(name, Kind.INSTANT, null);
    }

    static Field payload(String name) {
        return new Field(name, Kind.PAYLOAD, null);
    }

    static Field error(String name) {
        return new Field(name, Kind.ERROR, null);
    }

    /** Every record that implements {@link Event}, found from the sealed hierarchy. */
    static Set<Class<?>> eventRecords() {
        Set<Class<?>> records = new HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(Event.class));
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            if (c.isRecord()) {
                records.add(c);
            }
            Class<?>[] permitted = c.getPermittedSubclasses();
            if (permitted != null) {
                todo.addAll(List.of(permitted));
            }
        }
        return records;
    }

    /**
     * @param records every record the table must declare, and nothing else
     * @throws IllegalStateException naming every record that differs from its declaration, every record without one
     *                               and every declaration of no such record
     */
    static void check(List<Declared> table, Collection<Class<?>> records) {
        List<String> problems = new ArrayList<>();
        Set<String> types = new HashSet<>();
        for (Declared d : table) {
            if (!types.add(d.type())) {
                problems.add(d.type() + ": declared twice");
            }
            if (!records.contains(d.record())) {
                problems.add(d.type() + ": declared for " + d.record().getName() + ", which is no event record");
            }
            problems.addAll(mismatches(d));
        }
        Set<Class<?>> declared = table.stream().map(Declared::record).collect(Collectors.toSet());
        for (Class<?> r : records) {
            if (!declared.contains(r)) {
                problems.add(r.getSimpleName() + ": an event record the stored format does not declare");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the event records no longer match the stored event format"
                    + " (StoredEvents): written as they are, new events would be stored differently and stored ones"
                    + " would not read back. Keep each record as declared, or change the format under a new version.\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** How a record's components differ from its declaration; empty when they match in name, type and order. */
    static List<String> mismatches(Declared d) {
        List<String> out = new ArrayList<>();
        if (!d.type().equals(d.record().getSimpleName())) {
            out.add(d.type() + ": its record is named " + d.record().getSimpleName() + ", and an event is stored under"
                    + " its record's name");
        }
        RecordComponent[] components = d.record().getRecordComponents();
        List<Field> fields = d.all();
        for (int i = 0; i < Math.max(components.length, fields.size()); i++) {
            Field f = i < fields.size() ? fields.get(i) : null;
            RecordComponent c = i < components.length ? components[i] : null;
            if (f == null) {
                out.add(d.type() + ": component " + (i + 1) + ", " + describe(c) + ", is not declared");
            } else if (c == null) {
                out.add(d.type() + ": declared " + describe(f) + " as component " + (i + 1) + ", which it has not");
            } else if (!c.getName().equals(f.name()) || c.getType() != f.kind().javaType) {
                out.add(d.type() + ": component " + (i + 1) + " is " + describe(c) + ", declared " + describe(f));
            }
        }
        return out;
    }

    private static String describe(RecordComponent c) {
        return c.getType().getSimpleName() + " " + c.getName();
    }

    private static String describe(Field f) {
        return f.kind().javaType.getSimpleName() + " " + f.name();
    }
}
