package io.worldflow.format.internal;

import io.worldflow.event.Event;
import io.worldflow.format.internal.StoredEvents.Kind;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One event type as {@link LogRowCodec} writes and reads it: its stored name, its components in order with what each
 * holds and the value it leaves out, as {@link StoredEvents} declares them, and its canonical constructor. Every record
 * that implements {@link Event} has one, made once; a record that differs from its declaration fails here, at class
 * initialisation, before anything is written.
 */
record EventShape(
        String type,
        List<Component> components,
        List<Component> stored,
        Map<String, Component> byName,
        MethodHandle constructor) {

    /**
     * @param absent   the value left out when written and given when missing (see {@link StoredEvents.Field})
     * @param accessor {@code (Event) -> Object}
     */
    record Component(String name, Kind kind, Object absent, int index, MethodHandle accessor) {

        /**
         * Whether a record leaves this value out: null, or the number its field declares. Only the declared value's
         * own {@code equals} is called, so that this stays one cheap check per component on every step.
         */
        boolean leftOut(Object value) {
            return value == null || absent != null && absent.equals(value);
        }

        Object get(Event event) {
            try {
                return (Object) accessor.invokeExact(event);
            } catch (Throwable e) {
                throw new IllegalStateException(
                        "cannot read " + name + " of " + event.getClass().getSimpleName(), e);
            }
        }
    }

    private static final Map<Class<?>, EventShape> BY_CLASS;
    private static final Map<String, EventShape> BY_NAME;

    static {
        StoredEvents.check(StoredEvents.TABLE, StoredEvents.eventRecords());
        Map<Class<?>, EventShape> byClass = new HashMap<>();
        Map<String, EventShape> byName = new HashMap<>();
        for (StoredEvents.Declared declared : StoredEvents.TABLE) {
            EventShape shape = shapeOf(declared);
            byClass.put(declared.record(), shape);
            byName.put(shape.type(), shape);
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

    static EventShape ofRecord(Class<?> record) {
        return BY_CLASS.get(record);
    }

    /** The shape stored under {@code type}, or null when no event has that name. */
    static EventShape named(String type) {
        return BY_NAME.get(type);
    }

    Component component(String name) {
        return byName.get(name);
    }

    /** The constructor's arguments before any property is read: the run and seq, and what each field leaves out. */
    Object[] defaults(String runId, long seq) {
        Object[] args = new Object[components.size()];
        for (Component c : components) {
            args[c.index()] = switch (c.kind()) {
                case RUN_ID -> runId;
                case SEQ -> seq;
                default -> c.absent();
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

    /** The shape of a declaration that {@link StoredEvents#check} found to match its record. */
    private static EventShape shapeOf(StoredEvents.Declared declared) {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<? extends Record> record = declared.record();
        RecordComponent[] rcs = record.getRecordComponents();
        List<StoredEvents.Field> fields = declared.all();
        Component[] components = new Component[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        try {
            for (int i = 0; i < rcs.length; i++) {
                StoredEvents.Field f = fields.get(i);
                types[i] = f.kind().javaType;
                MethodHandle accessor =
                        lookup.unreflect(rcs[i].getAccessor()).asType(MethodType.methodType(Object.class, Event.class));
                components[i] = new Component(f.name(), f.kind(), f.absent(), i, accessor);
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
                    .filter(c -> c.kind() != Kind.RUN_ID && c.kind() != Kind.SEQ)
                    .toList();
            return new EventShape(declared.type(), all, stored, Map.copyOf(byName), constructor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read or create event records of " + record.getName(), e);
        }
    }
}
