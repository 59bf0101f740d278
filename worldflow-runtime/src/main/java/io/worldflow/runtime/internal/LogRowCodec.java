package io.worldflow.runtime.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.impl.SimpleBeanPropertyFilter;
import com.fasterxml.jackson.databind.ser.impl.SimpleFilterProvider;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of one append as a world stores them: one compact JSON array whose objects leave out
 * {@code runId} and {@code seq}, which the stored record already holds (its run, its first seq), and properties
 * that are null. Each event's {@code at} after the first is the number of nanoseconds after the previous one's
 * ({@code "at":2694}, not {@code "at":"2026-11-22T08:36:33.288248944Z"}): the events of one append are
 * microseconds apart, and the time of each is the larger part of a small event. On reading, each object gets
 * its run and seq back right after its {@code type}, and its {@code at} as an instant; an object that still
 * carries its run and seq (written before they were left out) must agree with the record, and an {@code at}
 * may be text in any object (written before the numbers).
 */
public final class LogRowCodec {

    /** The filter id the event mapper puts on every event; see {@link #filters(boolean)}. */
    public static final String FILTER = "event";
    private static final String RUN_ID = "runId";
    private static final String SEQ = "seq";
    private static final String AT = "at";
    /** The serialization attribute under which an encoding keeps its {@link AtChain}. */
    private static final Object AT_CHAIN = AtChain.class;

    private final ObjectMapper mapper;
    private final ObjectWriter writer;
    private final ObjectReader reader;

    /** @param mapper the event mapper, whose events carry the {@link #FILTER} filter */
    public LogRowCodec(ObjectMapper mapper) {
        this.mapper = mapper;
        JavaType list = mapper.getTypeFactory().constructCollectionType(List.class, Event.class);
        ObjectMapper withoutNulls = mapper.copy().setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);
        this.writer = withoutNulls.writerFor(list).with(new SimpleFilterProvider()
                .addFilter(FILTER, SimpleBeanPropertyFilter.serializeAllExcept(RUN_ID, SEQ)));
        this.reader = mapper.readerFor(Event.class);
    }

    /** The event mapper's own filters: every property of an event. */
    public static SimpleFilterProvider allProperties() {
        return new SimpleFilterProvider().addFilter(FILTER, SimpleBeanPropertyFilter.serializeAll());
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
        try {
            return writer.withAttribute(AT_CHAIN, new AtChain()).writeValueAsString(events);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot serialize " + events.size() + " events"
                    + (events.isEmpty() ? "" : " of run " + events.getFirst().runId()), e);
        }
    }

    public List<Event> decode(String runId, long firstSeq, String json) {
        List<Event> out = new ArrayList<>();
        try (JsonParser p = mapper.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw refused(runId, json, "not an array of events", null);
            }
            long seq = firstSeq;
            Instant[] previousAt = new Instant[1];
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                out.add(reader.readValue(withIdentity(p, runId, seq, previousAt, json)));
                seq++;
            }
            if (t != JsonToken.END_ARRAY || p.nextToken() != null) {
                throw refused(runId, json, "not an array of events", null);
            }
        } catch (JsonProcessingException e) {
            throw refused(runId, json, e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw refused(runId, json, e.getMessage(), e);
        }
        return out;
    }

    /**
     * The object at {@code p} (its start read) with the run id and seq after its first property, and its
     * {@code at} as an instant, which becomes {@code previousAt[0]}.
     */
    private JsonParser withIdentity(JsonParser p, String runId, long seq, Instant[] previousAt, String json)
            throws IOException {
        TokenBuffer tb = new TokenBuffer(p, null);
        tb.forceUseOfBigDecimal(true);
        tb.writeStartObject();
        boolean added = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (RUN_ID.equals(name)) {
                if (!runId.equals(p.getValueAsString())) {
                    throw refused(runId, json, "event " + seq + " names run " + p.getText(), null);
                }
                continue;
            }
            if (SEQ.equals(name)) {
                if (!p.currentToken().isNumeric() || p.getLongValue() != seq) {
                    throw refused(runId, json, "event " + seq + " is numbered " + p.getText(), null);
                }
                continue;
            }
            tb.writeFieldName(name);
            if (AT.equals(name)) {
                previousAt[0] = at(p, previousAt[0], runId, seq, json);
                tb.writeEmbeddedObject(previousAt[0]);
            } else {
                tb.copyCurrentStructure(p);
            }
            if (!added) {
                tb.writeStringField(RUN_ID, runId);
                tb.writeNumberField(SEQ, seq);
                added = true;
            }
        }
        tb.writeEndObject();
        return tb.asParserOnFirstToken();
    }

    /** An event's {@code at}: an instant as text, or nanoseconds after the previous event's. */
    private static Instant at(JsonParser p, Instant previous, String runId, long seq, String json) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            String text = p.getText();
            Instant fast = IsoInstants.tryParse(text);
            if (fast != null) {
                return fast;
            }
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException e) {
                throw refused(runId, json, "event " + seq + " has at " + text + ", not an instant", e);
            }
        }
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.LONG
                && p.getNumberType() != JsonParser.NumberType.INT) {
            throw refused(runId, json, "event " + seq + " has at " + p.getText() + ", not an instant", null);
        }
        if (previous == null) {
            throw refused(runId, json, "event " + seq + " has at " + p.getText()
                    + " nanoseconds after the previous event, and is the first", null);
        }
        return previous.plusNanos(p.getLongValue());
    }

    /**
     * Writes an event's {@code at} in a record: the first as text, each later one as the nanoseconds after the
     * one before (as text again in the unlikely case that they do not fit in a long). Called by the event
     * mapper's instant serializer for every instant; other instants it leaves to the caller.
     *
     * @return whether it wrote {@code value}
     */
    public static boolean writeAt(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
        if (!(serializers.getAttribute(AT_CHAIN) instanceof AtChain chain)) {
            return false;
        }
        JsonStreamContext context = gen.getOutputContext();
        JsonStreamContext event = context.getParent();
        if (!AT.equals(context.getCurrentName()) || event == null || !event.inArray() || event.getParent() == null
                || !event.getParent().inRoot()) {
            return false;
        }
        Instant previous = chain.previous;
        chain.previous = value;
        if (previous != null) {
            try {
                long nanos = Math.addExact(Math.multiplyExact(value.getEpochSecond() - previous.getEpochSecond(),
                        1_000_000_000L), value.getNano() - previous.getNano());
                gen.writeNumber(nanos);
                return true;
            } catch (ArithmeticException tooFarApart) {
                // as text
            }
        }
        gen.writeString(IsoInstants.format(value));
        return true;
    }

    /** The {@code at} of the event written last in one encoding. */
    private static final class AtChain {
        Instant previous;
    }

    private static SerializationException refused(String runId, String json, String why, Exception cause) {
        String text = json.length() <= 200 ? json : json.substring(0, 200) + "…";
        return new SerializationException("cannot read events of run " + runId + " " + text + ": " + why, cause);
    }
}
