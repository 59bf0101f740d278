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

    /** Events as one compact JSON array, in order: how a world keeps the events of one append in one record. */
    String encodeAll(List<Event> events);

    /**
     * The events of a JSON array written by {@link #encodeAll}, in order.
     *
     * @throws io.worldflow.SerializationException when the text is not an array of events this version knows
     */
    List<Event> decodeAll(String json);

    /** An error as JSON, for a world's run projection (a run's failure, why it is held). */
    String encodeError(ErrorInfo error);

    ErrorInfo decodeError(String json);
}
