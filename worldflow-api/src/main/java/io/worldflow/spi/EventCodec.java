package io.worldflow.spi;

import io.worldflow.ErrorInfo;
import io.worldflow.event.Event;

import java.util.List;

/** The one JSON form of events, shared by every world, the HTTP API and saved histories. */
public interface EventCodec {

    /** The event as one JSON object with {@code type}, {@code seq}, {@code runId}, {@code at} and its fields. */
    String encode(Event event);

    /**
     * @throws io.worldflow.SerializationException when the text is not an event this version knows
     */
    Event decode(String json);

    /**
     * The events of one append as one compact JSON array, in order: how a world keeps them in one record.
     * The objects leave out {@code runId} and {@code seq}: the record holds the run and the first seq.
     *
     * @throws IllegalArgumentException when the events are not of one run with consecutive seq
     */
    String encodeAll(List<Event> events);

    /**
     * The events of a record written by {@link #encodeAll}, in order, numbered from {@code firstSeq}.
     *
     * @throws io.worldflow.SerializationException when the text is not an array of events this version knows,
     *                                             or an object in it names another run or seq
     */
    List<Event> decodeAll(String runId, long firstSeq, String json);

    /** An error as JSON, for a world's run projection (a run's failure, why it is held). */
    String encodeError(ErrorInfo error);

    ErrorInfo decodeError(String json);
}
