package io.worldflow.runtime.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.ser.impl.SimpleBeanPropertyFilter;
import com.fasterxml.jackson.databind.ser.impl.SimpleFilterProvider;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of one append as a world stores them: one compact JSON array whose objects leave out
 * {@code runId} and {@code seq}, which the stored record already holds (its run, its first seq). On reading,
 * each object gets them back right after its {@code type}; an object that still carries them (written before
 * they were left out) must agree with the record.
 */
public final class LogRowCodec {

    /** The filter id the event mapper puts on every event; see {@link #filters(boolean)}. */
    public static final String FILTER = "event";
    private static final String RUN_ID = "runId";
    private static final String SEQ = "seq";

    private final ObjectMapper mapper;
    private final ObjectWriter writer;
    private final ObjectReader reader;

    /** @param mapper the event mapper, whose events carry the {@link #FILTER} filter */
    public LogRowCodec(ObjectMapper mapper) {
        this.mapper = mapper;
        JavaType list = mapper.getTypeFactory().constructCollectionType(List.class, Event.class);
        this.writer = mapper.writerFor(list).with(new SimpleFilterProvider()
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
            return writer.writeValueAsString(events);
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
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                out.add(reader.readValue(withIdentity(p, runId, seq, json)));
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

    /** The object at {@code p} (its start read) with the run id and seq after its first property. */
    private JsonParser withIdentity(JsonParser p, String runId, long seq, String json) throws IOException {
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
            tb.copyCurrentStructure(p);
            if (!added) {
                tb.writeStringField(RUN_ID, runId);
                tb.writeNumberField(SEQ, seq);
                added = true;
            }
        }
        tb.writeEndObject();
        return tb.asParserOnFirstToken();
    }

    private static SerializationException refused(String runId, String json, String why, Exception cause) {
        String text = json.length() <= 200 ? json : json.substring(0, 200) + "…";
        return new SerializationException("cannot read events of run " + runId + " " + text + ": " + why, cause);
    }
}
