package io.worldflow.format.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.format.EventFormat;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of one append as a world stores them: one compact JSON array whose objects leave out
 * {@code runId} and {@code seq}, which the stored record already holds (its run, its first seq), properties
 * that are null, and numbers equal to the value their field declares it leaves out ({@link StoredEvents}: an
 * {@code attempt} of 1, the first; a count of 0). The first event's {@code at} is a number of nanoseconds
 * since the epoch, each later one's the number of nanoseconds after the previous one's ({@code "at":2694}, not
 * {@code "at":"2026-11-22T08:36:33.288248944Z"}): the events of one append are microseconds apart, and the time of
 * each is the larger part of a small event. A payload's type names the common types of {@code java.lang} and
 * {@code java.util} by their simple names ({@link StoredTypeNames}). On reading, each object gets its run and seq
 * from the record, its {@code at} as an instant, and for each number it lacks the value its field leaves out; an
 * object that still carries its run and seq (written before they were left out) must agree with the record, and an
 * {@code at} may be text in any object (written before the numbers).
 *
 * <p>The form has a version ({@link EventFormat#VERSION}). Version 1, this one, is a bare array of objects; a
 * later version is written with its number first ({@code [2,{…},{…}]}), and a reader refuses a number above the
 * newest it knows with a {@link SerializationException} naming both, instead of misreading the record. A leading 1
 * is read as version 1.
 *
 * <p>Every world writes and reads these on each step, so they are written as text and read token by token along
 * the events' {@link EventShape shapes}, not through the object mapper: each object is {@code type} and then the
 * record's components in their order, the form {@link EventFormat#encode} gives a single event. Errors, which are
 * rare, go through the mapper.
 */
public final class LogRowCodec {

    private static final String TYPE = "type";
    private static final String VALUE = "value";
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final ObjectMapper mapper;
    private final JsonFactory json;
    private final ObjectWriter errorWriter;
    private final ObjectReader errorReader;

    /** @param mapper the event mapper, for errors and for objects whose {@code type} is not their first property */
    public LogRowCodec(ObjectMapper mapper) {
        this.mapper = mapper;
        this.json = mapper.getFactory();
        this.errorWriter = mapper.copy()
                .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL)
                .writerFor(ErrorInfo.class);
        this.errorReader = mapper.readerFor(ErrorInfo.class);
    }

    /**
     * @throws IllegalArgumentException when the events are not of one run with consecutive seq, which the
     *                                  stored form could not give back
     */
    public String encode(List<Event> events) {
        if (!events.isEmpty()) {
            Event first = events.getFirst();
            for (int i = 1; i < events.size(); i++) {
                Event e = events.get(i);
                if (!e.runId().equals(first.runId()) || e.seq() != first.seq() + i) {
                    throw new IllegalArgumentException("the events of one record must be of one run with consecutive"
                            + " seq: event " + i + " is seq " + e.seq() + " of run " + e.runId() + ", after seq "
                            + first.seq() + " of run " + first.runId());
                }
            }
        }
        StringBuilder out = new StringBuilder(64 + 160 * events.size());
        // version 1 without its number, as every release has written it, so that a release that knows no
        // version numbers still reads what this one writes (a rolling deploy, a rollback)
        out.append('[');
        Instant previous = null;
        for (Event event : events) {
            if (previous != null) {
                out.append(',');
            }
            write(out, event, previous);
            previous = event.at();
        }
        return out.append(']').toString();
    }

    /**
     * One event's object, written directly: it is a handful of strings, numbers and raw payloads, and this is the
     * path every append of every run takes. Errors, which are rare, go through the mapper.
     */
    private void write(StringBuilder out, Event event, Instant previousAt) {
        EventShape shape = EventShape.of(event);
        out.append("{\"type\":\"").append(shape.type()).append('"');
        for (EventShape.Component c : shape.stored()) {
            Object value = c.get(event);
            if (c.leftOut(value)) {
                continue;
            }
            out.append(",\"").append(c.name()).append("\":");
            switch (c.kind()) {
                case STRING -> JsonText.string(out, (String) value);
                case INT -> out.append((int) value);
                case BOOL -> out.append((boolean) value);
                case STRINGS -> {
                    out.append('[');
                    List<?> texts = (List<?>) value;
                    for (int i = 0; i < texts.size(); i++) {
                        JsonText.string(out.append(i == 0 ? "" : ","), (String) texts.get(i));
                    }
                    out.append(']');
                }
                case AT -> writeAt(out, (Instant) value, previousAt);
                case INSTANT ->
                    out.append('"').append(IsoInstants.format((Instant) value)).append('"');
                case PAYLOAD -> writePayload(out, (Payload) value);
                case ERROR -> out.append(error(event, value));
                case RUN_ID, SEQ -> throw new IllegalStateException("not stored: " + c.name());
            }
        }
        out.append('}');
    }

    private String error(Event event, Object error) {
        try {
            return errorWriter.writeValueAsString(error);
        } catch (JsonProcessingException e) {
            throw new SerializationException(
                    "cannot serialize the error of event " + event.type() + " #" + event.seq() + " of run "
                            + event.runId(),
                    e);
        }
    }

    /**
     * The first event's time as nanoseconds since the epoch, each later one's as the nanoseconds after the one before;
     * as text when the number would not fit in a long (a first time after 2262, two times 292 years apart).
     */
    private static void writeAt(StringBuilder out, Instant at, Instant previous) {
        long seconds = previous == null ? at.getEpochSecond() : at.getEpochSecond() - previous.getEpochSecond();
        int nanos = previous == null ? at.getNano() : at.getNano() - previous.getNano();
        try {
            out.append(Math.addExact(Math.multiplyExact(seconds, NANOS_PER_SECOND), nanos));
        } catch (ArithmeticException tooFar) {
            out.append('"').append(IsoInstants.format(at)).append('"');
        }
    }

    /** {@code {"type": "<descriptor>", "value": <raw JSON>}}, as the event mapper writes a payload. */
    private static void writePayload(StringBuilder out, Payload p) {
        out.append('{');
        if (p.type() != null) {
            out.append("\"type\":");
            JsonText.string(out, StoredTypeNames.shorten(p.type()));
            out.append(',');
        }
        out.append("\"value\":").append(p.json()).append('}');
    }

    public List<Event> decode(String runId, long firstSeq, String text) {
        List<Event> out = new ArrayList<>();
        try (JsonParser p = json.createParser(text);
                Reading r = new Reading(runId, firstSeq, text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw refused(runId, text, "not an array of events", null);
            }
            JsonToken t = p.nextToken();
            if (t != null && t.isNumeric()) {
                checkVersion(p, runId, text);
                t = p.nextToken();
            }
            while (t == JsonToken.START_OBJECT) {
                Event e = read(p, r);
                out.add(e);
                r.previousAt = e.at();
                r.seq++;
                t = p.nextToken();
            }
            if (t != JsonToken.END_ARRAY || p.nextToken() != null) {
                throw refused(runId, text, "not an array of events", null);
            }
        } catch (JsonProcessingException e) {
            throw refused(runId, text, e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw refused(runId, text, e.getMessage(), e);
        }
        return out;
    }

    /** A record's leading number, the version of its format: one this reads, or refused naming both. */
    private static void checkVersion(JsonParser p, String runId, String text) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
                || p.getNumberType() != JsonParser.NumberType.INT
                || p.getIntValue() < 1) {
            throw refused(runId, text, "it starts with " + p.getText() + ", which is no event format version", null);
        }
        int version = p.getIntValue();
        if (version > EventFormat.VERSION) {
            throw refused(
                    runId,
                    text,
                    "event format version " + version + ", newer than this Worldflow reads (versions" + " up to "
                            + EventFormat.VERSION + "): a newer release wrote it",
                    null);
        }
    }

    /**
     * Where a decoding is: the record's run and text, the seq of the object being read, the time of the one before;
     * and one generator for the record's payloads, made at the first.
     */
    private final class Reading implements AutoCloseable {
        final String runId;
        final String text;
        long seq;
        Instant previousAt;
        private StringWriter copied;
        private JsonGenerator copier;

        Reading(String runId, long seq, String text) {
            this.runId = runId;
            this.seq = seq;
            this.text = text;
        }

        /** The value at {@code p} as JSON text, numbers exactly as written. */
        String copy(JsonParser p) throws IOException {
            if (copier == null) {
                copied = new StringWriter(32);
                copier = json.createGenerator(copied);
                copier.setRootValueSeparator(null);
            }
            copier.copyCurrentStructureExact(p);
            copier.flush();
            String value = copied.toString();
            copied.getBuffer().setLength(0);
            return value;
        }

        @Override
        public void close() throws IOException {
            if (copier != null) {
                copier.close();
            }
        }

        SerializationException refused(String why) {
            return LogRowCodec.refused(runId, text, "event " + seq + " " + why, null);
        }
    }

    /** The event whose object's start {@code p} has just read. */
    private Event read(JsonParser p, Reading r) throws IOException {
        if (p.nextToken() != JsonToken.FIELD_NAME) {
            throw r.refused("has no type");
        }
        if (!TYPE.equals(p.currentName())) {
            return read(typeFirst(p, r), r);
        }
        p.nextToken();
        EventShape shape = p.currentToken() == JsonToken.VALUE_STRING ? EventShape.named(p.getText()) : null;
        if (shape == null) {
            throw r.refused("has type " + p.getText() + ", which is no event type");
        }
        Object[] args = shape.defaults(r.runId, r.seq);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            EventShape.Component c = shape.component(name);
            if (c == null) {
                throw r.refused(
                        "(" + shape.type() + ") has property " + name + ", which a " + shape.type() + " has not");
            }
            JsonToken t = p.nextToken();
            switch (c.kind()) {
                case RUN_ID -> {
                    if (!r.runId.equals(p.getValueAsString())) {
                        throw r.refused("names run " + p.getText());
                    }
                }
                case SEQ -> {
                    if (!t.isNumeric() || p.getLongValue() != r.seq) {
                        throw r.refused("is numbered " + p.getText());
                    }
                }
                case AT -> args[c.index()] = at(p, r);
                default -> {
                    if (t != JsonToken.VALUE_NULL) {
                        args[c.index()] = value(p, c, r);
                    }
                }
            }
        }
        try {
            return shape.create(args);
        } catch (RuntimeException e) {
            throw LogRowCodec.refused(
                    r.runId, r.text, "event " + r.seq + " (" + shape.type() + "): " + e.getMessage(), e);
        }
    }

    private Object value(JsonParser p, EventShape.Component c, Reading r) throws IOException {
        JsonToken t = p.currentToken();
        return switch (c.kind()) {
            case STRING -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw r.refused("has " + c.name() + " " + p.getText() + ", not a string");
                }
                yield p.getText();
            }
            case INT -> {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
                    throw r.refused("has " + c.name() + " " + p.getText() + ", not a whole number in range");
                }
                yield p.getIntValue();
            }
            case BOOL -> {
                if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                    throw r.refused("has " + c.name() + " " + p.getText() + ", not true or false");
                }
                yield t == JsonToken.VALUE_TRUE;
            }
            case STRINGS -> {
                if (t != JsonToken.START_ARRAY) {
                    throw r.refused("has " + c.name() + " " + p.getText() + ", not a list of strings");
                }
                List<String> texts = new ArrayList<>();
                while (p.nextToken() == JsonToken.VALUE_STRING) {
                    texts.add(p.getText());
                }
                if (p.currentToken() != JsonToken.END_ARRAY) {
                    throw r.refused("has " + c.name() + " holding " + p.getText() + ", not a string");
                }
                yield List.copyOf(texts);
            }
            case INSTANT -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw r.refused("has " + c.name() + " " + p.getText() + ", not an instant");
                }
                yield instant(p.getText(), c.name(), r);
            }
            case PAYLOAD -> payload(p, c, r);
            case ERROR -> errorReader.readValue(p);
            case RUN_ID, SEQ, AT -> throw new IllegalStateException("read apart: " + c.name());
        };
    }

    /** An event's {@code at}: an instant as text, or nanoseconds since the epoch (the first) or after the previous event's. */
    private static Instant at(JsonParser p, Reading r) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return instant(p.getText(), "at", r);
        }
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
                || p.getNumberType() != JsonParser.NumberType.LONG && p.getNumberType() != JsonParser.NumberType.INT) {
            throw r.refused("has at " + p.getText() + ", not an instant");
        }
        long nanos = p.getLongValue();
        if (r.previousAt == null) {
            return Instant.ofEpochSecond(
                    Math.floorDiv(nanos, NANOS_PER_SECOND), Math.floorMod(nanos, NANOS_PER_SECOND));
        }
        return r.previousAt.plusNanos(nanos);
    }

    private static Instant instant(String text, String name, Reading r) {
        Instant fast = IsoInstants.tryParse(text);
        if (fast != null) {
            return fast;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw LogRowCodec.refused(
                    r.runId, r.text, "event " + r.seq + " has " + name + " " + text + ", not an instant", e);
        }
    }

    /**
     * A payload object: its {@code type} and its {@code value} as JSON text, numbers exactly as written (the form
     * the event mapper gives a single event's payload); other properties are skipped.
     */
    private Payload payload(JsonParser p, EventShape.Component c, Reading r) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw r.refused("has " + c.name() + " " + p.getText() + ", not a payload");
        }
        String type = null;
        String value = "null";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (TYPE.equals(name) && t != JsonToken.VALUE_NULL) {
                if (t != JsonToken.VALUE_STRING) {
                    throw r.refused("has a " + c.name() + " whose type is " + p.getText() + ", not a type name");
                }
                type = StoredTypeNames.expand(p.getText());
            } else if (VALUE.equals(name) && t != JsonToken.VALUE_NULL) {
                value = r.copy(p);
            } else {
                p.skipChildren();
            }
        }
        return new Payload(value, type);
    }

    /**
     * The rest of an object whose first property, just read, is not its {@code type}, with its {@code type} first:
     * a parser at its start.
     */
    private JsonParser typeFirst(JsonParser p, Reading r) throws IOException {
        ObjectNode read = mapper.createObjectNode();
        do {
            String name = p.currentName();
            p.nextToken();
            read.set(name, mapper.readTree(p));
        } while (p.nextToken() == JsonToken.FIELD_NAME);
        JsonNode type = read.remove(TYPE);
        if (type == null) {
            throw r.refused("has no type");
        }
        ObjectNode ordered = mapper.createObjectNode();
        ordered.set(TYPE, type);
        ordered.setAll(read);
        JsonParser q = mapper.treeAsTokens(ordered);
        q.nextToken();
        return q;
    }

    private static SerializationException refused(String runId, String json, String why, Exception cause) {
        String text = json.length() <= 200 ? json : json.substring(0, 200) + "…";
        return new SerializationException("cannot read events of run " + runId + " " + text + ": " + why, cause);
    }
}
