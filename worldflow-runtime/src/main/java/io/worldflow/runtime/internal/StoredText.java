package io.worldflow.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.worldflow.WorldflowException;

/**
 * The text of the records the runtime keeps in a world and the world does not read (schedules, queues, deduplication
 * claims): JSON with instants and durations as ISO-8601 text, fields a newer runtime added passed over.
 */
final class StoredText {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private StoredText() {}

    /** @param what the record, for the message ("schedule 'nightly'") */
    static String write(Object value, String what) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new WorldflowException(what + " cannot be written: " + e.getOriginalMessage(), e);
        }
    }

    /** @param what the record, for the message ("schedule 'nightly'") */
    static <T> T read(String text, Class<T> type, String what) {
        try {
            return JSON.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new WorldflowException(what + " cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
