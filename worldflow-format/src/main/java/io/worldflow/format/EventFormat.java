package io.worldflow.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.worldflow.ErrorInfo;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.format.internal.EventMapper;
import io.worldflow.format.internal.LogRowCodec;
import io.worldflow.spi.EventCodec;

import java.util.List;

/**
 * The stored form of events, the one every world, the HTTP API and saved histories use. It owns three forms:
 * <ul>
 *   <li>a log record ({@link #encodeAll}): the events of one append as one compact JSON array, what worlds store;</li>
 *   <li>a single event ({@link #encode}): one JSON object with its run and seq, what the HTTP API serves;</li>
 *   <li>a timeline ({@link #encodeTimeline}): a run's events as an array of single events, what saved histories
 *   hold.</li>
 * </ul>
 * A log record carries the version of its form ({@link #VERSION}), so that a release refuses a log written by a newer
 * one instead of misreading it. Safe to share between threads.
 */
public final class EventFormat implements EventCodec {

    /**
     * The version of the log record form ({@link #encodeAll}) this writes, and the newest it reads. A record of a
     * later version names it ({@code [2,{…}]}) and is refused with a {@link SerializationException}; one without a
     * number is version 1.
     */
    public static final int VERSION = 1;

    private final ObjectMapper mapper;
    private final ObjectWriter timelineWriter;
    private final ObjectReader timelineReader;
    private final LogRowCodec logRows;

    public EventFormat() {
        this.mapper = EventMapper.create();
        JavaType timeline = mapper.getTypeFactory().constructCollectionType(List.class, Event.class);
        this.timelineWriter = mapper.writerFor(timeline).withDefaultPrettyPrinter();
        this.timelineReader = mapper.readerFor(timeline);
        this.logRows = new LogRowCodec(mapper);
    }

    @Override
    public String encode(Event event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new SerializationException(
                    "cannot serialize event " + event.type() + " #" + event.seq() + " of run " + event.runId(), e);
        }
    }

    @Override
    public Event decode(String json) {
        try {
            Event event = mapper.readValue(json, Event.class);
            if (event == null) {
                throw new SerializationException("cannot read event " + abbreviate(json) + ": not an event", null);
            }
            return event;
        } catch (JsonProcessingException e) {
            throw new SerializationException(
                    "cannot read event " + abbreviate(json) + ": " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public String encodeAll(List<Event> events) {
        return logRows.encode(events);
    }

    @Override
    public List<Event> decodeAll(String runId, long firstSeq, String json) {
        return logRows.decode(runId, firstSeq, json);
    }

    @Override
    public String encodeError(ErrorInfo error) {
        try {
            return mapper.writeValueAsString(error);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot serialize error " + error.type(), e);
        }
    }

    @Override
    public ErrorInfo decodeError(String json) {
        try {
            return mapper.readValue(json, ErrorInfo.class);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot read a recorded error: " + e.getOriginalMessage(), e);
        }
    }

    /** A whole timeline as one pretty-printed JSON array of {@linkplain #encode single events}. */
    public String encodeTimeline(List<Event> timeline) {
        try {
            return timelineWriter.writeValueAsString(timeline);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot serialize a timeline of " + timeline.size() + " events", e);
        }
    }

    /** The events of a text written by {@link #encodeTimeline}. */
    public List<Event> decodeTimeline(String json) {
        try {
            return timelineReader.readValue(json);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot read a timeline: " + e.getOriginalMessage(), e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "…";
    }
}
