package io.worldflow.runtime.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.worldflow.SearchAttributes;
import io.worldflow.WorldflowException;
import io.worldflow.spi.SearchValues;

import java.io.IOException;
import java.util.Map;

/**
 * The text of the records the runtime keeps in a world and the world does not read (schedules, queues, deduplication
 * claims): JSON with instants and durations as ISO-8601 text, fields a newer runtime added passed over.
 */
final class StoredText {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .registerModule(new SimpleModule("worldflow-stored-text")
                    // as the log stores them: name to typed text ("s:42", "l:1200"), which keeps each value's type
                    .addSerializer(SearchAttributes.class, new StdSerializer<>(SearchAttributes.class) {
                        @Override
                        public void serialize(SearchAttributes a, JsonGenerator gen, SerializerProvider p)
                                throws IOException {
                            p.defaultSerializeValue(SearchValues.encode(a), gen);
                        }
                    })
                    .addDeserializer(SearchAttributes.class, new StdDeserializer<>(SearchAttributes.class) {
                        @Override
                        public SearchAttributes deserialize(JsonParser parser, DeserializationContext c)
                                throws IOException {
                            Map<String, String> stored =
                                    parser.readValueAs(new TypeReference<Map<String, String>>() {});
                            try {
                                return SearchValues.decode(stored);
                            } catch (IllegalArgumentException e) {
                                throw JsonMappingException.from(parser, e.getMessage(), e);
                            }
                        }
                    }))
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
