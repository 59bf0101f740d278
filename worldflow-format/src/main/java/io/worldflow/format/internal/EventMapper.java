package io.worldflow.format.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import io.worldflow.Payload;
import io.worldflow.event.Event;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * The object mapper for a single event, a timeline and an error: an event is one object, {@code type} (its record's
 * simple name) and then the record's components in order; an instant is text as {@link Instant#toString()} writes
 * it; a payload is its JSON embedded as it is, not an escaped string. Fixed, so that every world and tool writes the
 * same text.
 */
public final class EventMapper {

    private EventMapper() {}

    public static ObjectMapper create() {
        SimpleModule module = new SimpleModule("worldflow-events");
        module.addSerializer(Payload.class, new PayloadSerializer());
        module.addDeserializer(Payload.class, new PayloadDeserializer());
        module.addSerializer(Instant.class, new IsoInstantSerializer());
        module.addDeserializer(Instant.class, new IsoInstantDeserializer());
        ObjectMapper mapper = JsonMapper.builder(sharedBufferFactory())
                .addModule(new JavaTimeModule())
                .addModule(module)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(MapperFeature.AUTO_DETECT_IS_GETTERS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                // payload JSON is kept as written: 12.50 must not come back as 12.5
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build();
        mapper.addMixIn(Event.class, EventMixin.class);
        mapper.addMixIn(WorkflowStarted.class, WorkflowStartedMixin.class);
        mapper.addMixIn(WorkflowCancelRequested.class, WorkflowCancelRequestedMixin.class);
        mapper.addMixIn(WorkflowRetried.class, ActorMixin.class);
        mapper.addMixIn(SignalReceived.class, ActorMixin.class);
        for (Class<?> c : EventShape.records()) {
            mapper.registerSubtypes(new NamedType(c, EventShape.ofRecord(c).type()));
        }
        return mapper;
    }

    /**
     * A factory whose parse and write buffers are pooled across threads. Jackson's default pool is per thread,
     * which gives nothing on virtual threads (steps and loads run on new ones): every read and write would
     * allocate its buffers anew.
     */
    private static JsonFactory sharedBufferFactory() {
        return JsonFactory.builder()
                .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
                .build();
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    private interface EventMixin {}

    /**
     * A field added to an event after its text was fixed is left out while null, so that the events written before
     * read and write as they always did.
     */
    private abstract static class WorkflowStartedMixin {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String parent();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String continuedFrom();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String schedule();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Instant scheduledFor();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String actor();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract List<String> searchAttributes();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String traceParent();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String traceState();
    }

    /** The same for a flag added later: left out while false. */
    private abstract static class WorkflowCancelRequestedMixin {
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        abstract boolean terminate();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String actor();
    }

    /** Who caused an event, added later: left out while null. */
    private abstract static class ActorMixin {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String actor();
    }

    /** {@code {"type": "<descriptor>", "value": <raw JSON>}}. */
    private static final class PayloadSerializer extends JsonSerializer<Payload> {
        @Override
        public void serialize(Payload p, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeStartObject();
            if (p.type() != null) {
                gen.writeStringField("type", p.type());
            }
            gen.writeFieldName("value");
            gen.writeRawValue(p.json());
            gen.writeEndObject();
        }
    }

    /** An event's instant as {@link Instant#toString()} writes it (see {@link IsoInstants}). */
    private static final class IsoInstantSerializer extends JsonSerializer<Instant> {
        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(IsoInstants.format(value));
        }
    }

    /** Reads the usual form directly; anything else goes to Jackson's own, which reads (or refuses) it as before. */
    private static final class IsoInstantDeserializer extends JsonDeserializer<Instant> {
        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                Instant fast = IsoInstants.tryParse(p.getText());
                if (fast != null) {
                    return fast;
                }
            }
            return InstantDeserializer.INSTANT.deserialize(p, ctxt);
        }
    }

    private static final class PayloadDeserializer extends JsonDeserializer<Payload> {
        @Override
        public Payload deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode node = p.readValueAsTree();
            JsonNode type = node.get("type");
            JsonNode value = node.get("value");
            String json = value == null || value.isNull() ? "null" : value.toString();
            return new Payload(json, type == null || type.isNull() ? null : type.asText());
        }
    }
}
