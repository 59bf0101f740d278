package io.worldflow.format.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.event.Event;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One event record type as {@link LogRowCodec} writes and reads it: its stored name, its components in order with
 * what each holds, and its canonical constructor. Every record that implements {@link Event} has one, found from
 * the sealed hierarchy once; a component of a type no kind covers fails here, at class initialisation.
 */
record EventShape(String type, List<Component> components, List<Component> stored,
                  Map<String, Component> byName, MethodHandle constructor) {

    /** What a component holds, which decides how it is written and read. */
    enum Kind { RUN_ID, SEQ, AT, STRING, INT, INSTANT, PAYLOAD, ERROR }

    /** @param accessor {@code (Event) -> Object} */
    record Component(String name, Kind kind, int index, MethodHandle accessor) {

        /** The value of an {@link Kind#INT} that a record leaves out: 1 for an {@code attempt} (the first), else 0. */
        int absentInt() {
            return name.equals("attempt") ? 1 : 0;
        }

        Object get(Event event) {
            try {
                return (Object) accessor.invokeExact(event);
            } catch (Throwable e) {
                throw new IllegalStateException("cannot read " + name + " of " + event.getClass().getSimpleName(), e);
            }
        }
    }

    private static final Map<Class<?>, EventShape> BY_CLASS;
    private static final Map<String, EventShape> BY_NAME;

    static {
        Map<Class<?>, EventShape> byClass = new HashMap<>();
        Map<String, EventShape> byName = new HashMap<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(Event.class));
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            if (c.isRecord()) {
                EventShape shape = shapeOf(c);
                byClass.put(c, shape);
                byName.put(shape.type(), shape);
            }
            Class<?>[] permitted = c.getPermittedSubclasses();
            if (permitted != null) {
                todo.addAll(List.of(permitted));
            }
        }
        BY_CLASS = Map.copyOf(byClass);
        BY_NAME = Map.copyOf(byName);
    }

    static Set<Class<?>> records() {
        return BY_CLASS.keySet();
    }

    static EventShape of(Event event) {
        return BY_CLASS.get(event.getClass());
    }

    /** The shape stored under {@code type}, or null when no event has that name. */
    static EventShape named(String type) {
        return BY_NAME.get(type);
    }

    Component component(String name) {
        return byName.get(name);
    }

    /** The constructor's arguments before any property is read: the run and seq, {@link Component#absentInt} for numbers, null otherwise. */
    Object[] defaults(String runId, long seq) {
        Object[] args = new Object[components.size()];
        for (Component c : components) {
            args[c.index()] = switch (c.kind()) {
                case RUN_ID -> runId;
                case SEQ -> seq;
                case INT -> c.absentInt();
                default -> null;
            };
        }
        return args;
    }

    /** @throws RuntimeException what the record's constructor throws, such as a missing {@code at} */
    Event create(Object[] args) {
        try {
            return (Event) constructor.invokeExact(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create a " + type, e);
        }
    }

    private static EventShape shapeOf(Class<?> record) {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        RecordComponent[] rcs = record.getRecordComponents();
        Component[] components = new Component[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        try {
            for (int i = 0; i < rcs.length; i++) {
                RecordComponent rc = rcs[i];
                types[i] = rc.getType();
                MethodHandle accessor = lookup.unreflect(rc.getAccessor())
                        .asType(MethodType.methodType(Object.class, Event.class));
                components[i] = new Component(rc.getName(), kind(record, rc), i, accessor);
            }
            MethodHandle constructor = lookup.unreflectConstructor(record.getDeclaredConstructor(types))
                    .asSpreader(Object[].class, rcs.length)
                    .asType(MethodType.methodType(Event.class, Object[].class));
            Map<String, Component> byName = new HashMap<>();
            for (Component c : components) {
                byName.put(c.name(), c);
            }
            List<Component> all = List.of(components);
            List<Component> stored = Arrays.stream(components)
                    .filter(c -> c.kind() != Kind.RUN_ID && c.kind() != Kind.SEQ).toList();
            return new EventShape(record.getSimpleName(), all, stored, Map.copyOf(byName), constructor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read or create event records of " + record.getName(), e);
        }
    }

    private static Kind kind(Class<?> record, RecordComponent rc) {
        Class<?> t = rc.getType();
        String name = rc.getName();
        if (name.equals("runId") && t == String.class) {
            return Kind.RUN_ID;
        }
        if (name.equals("seq") && t == long.class) {
            return Kind.SEQ;
        }
        if (name.equals("at") && t == Instant.class) {
            return Kind.AT;
        }
        if (t == String.class) {
            return Kind.STRING;
        }
        if (t == int.class) {
            return Kind.INT;
        }
        if (t == Instant.class) {
            return Kind.INSTANT;
        }
        if (t == Payload.class) {
            return Kind.PAYLOAD;
        }
        if (t == ErrorInfo.class) {
            return Kind.ERROR;
        }
        throw new IllegalStateException("event " + record.getSimpleName() + " has component " + name + " of type "
                + t.getName() + ", which the log's records cannot hold");
    }
}
