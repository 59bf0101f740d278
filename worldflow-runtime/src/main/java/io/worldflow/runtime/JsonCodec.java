package io.worldflow.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.runtime.internal.IsoInstants;
import io.worldflow.runtime.internal.LogRowCodec;
import io.worldflow.spi.EventCodec;

import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON for payloads (workflow inputs and results, step results, signals) and for events. Payloads go
 * through a user-replaceable {@link ObjectMapper}; events through a fixed one, so every world stores
 * the same event format. A payload records a type descriptor taken from the value itself
 * ({@code java.util.List<com.acme.Label>}), so results decode on replay without a type token.
 */
public final class JsonCodec {

    /** Payloads above this many characters are refused with a {@link SerializationException}. */
    public static final int DEFAULT_MAX_PAYLOAD_CHARS = 2 * 1024 * 1024;
    private static final int MAX_RECORDED_TYPES = 4_096;

    private final ObjectMapper payloads;
    private final ObjectMapper events;
    private final ObjectWriter eventListWriter;
    private final ObjectReader eventListReader;
    private final LogRowCodec logRows;
    private final int maxPayloadChars;
    /** Parsed type descriptors; a log names few types, and past this many the rest are parsed each time. */
    private final Map<String, JavaType> recordedTypes = new ConcurrentHashMap<>();
    private final EventCodec eventCodec = new EventCodec() {
        @Override
        public String encode(Event event) {
            return encodeEvent(event);
        }

        @Override
        public Event decode(String json) {
            return decodeEvent(json);
        }

        @Override
        public String encodeAll(List<Event> list) {
            return logRows.encode(list);
        }

        @Override
        public List<Event> decodeAll(String runId, long firstSeq, String json) {
            return logRows.decode(runId, firstSeq, json);
        }

        @Override
        public String encodeError(ErrorInfo error) {
            try {
                return events.writeValueAsString(error);
            } catch (JsonProcessingException e) {
                throw new SerializationException("cannot serialize error " + error.type(), e);
            }
        }

        @Override
        public ErrorInfo decodeError(String json) {
            try {
                return events.readValue(json, ErrorInfo.class);
            } catch (JsonProcessingException e) {
                throw new SerializationException("cannot read a recorded error: " + e.getOriginalMessage(), e);
            }
        }
    };

    public JsonCodec() {
        this(defaultPayloadMapper(), DEFAULT_MAX_PAYLOAD_CHARS);
    }

    public JsonCodec(ObjectMapper payloadMapper, int maxPayloadChars) {
        this.payloads = Objects.requireNonNull(payloadMapper, "payloadMapper");
        if (maxPayloadChars < 16) {
            throw new IllegalArgumentException("maxPayloadChars must be at least 16, was " + maxPayloadChars);
        }
        this.maxPayloadChars = maxPayloadChars;
        this.events = eventMapper();
        JavaType eventList = events.getTypeFactory().constructCollectionType(List.class, Event.class);
        this.eventListWriter = events.writerFor(eventList);
        this.eventListReader = events.readerFor(eventList);
        this.logRows = new LogRowCodec(events);
    }

    /** The mapper used for payloads unless another is given: Java time as ISO strings, unknown properties ignored. */
    public static ObjectMapper defaultPayloadMapper() {
        return JsonMapper.builder(sharedBufferFactory())
                .addModule(new JavaTimeModule())
                .addModule(new Jdk8Module())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .build();
    }

    public EventCodec eventCodec() {
        return eventCodec;
    }

    /** The payload mapper, for code that must read or write payload JSON directly. */
    public ObjectMapper payloadMapper() {
        return payloads;
    }

    /**
     * Encodes a value, recording its type.
     *
     * @param what names the value in an error, e.g. {@code "result of step 'charge' of run r1"}
     */
    public Payload encode(Object value, String what) {
        if (value == null) {
            return Payload.NULL;
        }
        String json;
        try {
            json = payloads.writeValueAsString(value);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new SerializationException("cannot serialize " + what + " (" + value.getClass().getName()
                    + ") to JSON: " + e.getMessage(), e);
        }
        if (json.length() > maxPayloadChars) {
            throw new SerializationException(what + " is " + json.length() + " characters of JSON, above the limit of "
                    + maxPayloadChars, null);
        }
        return new Payload(json, describe(value));
    }

    /** Decodes a payload as {@code type}, or as its recorded type when {@code type} is null. */
    public <T> T decode(Payload payload, Class<T> type, String what) {
        if (payload == null || (payload.isNull() && !isOptional(type, payload.type()))) {
            return null;
        }
        try {
            if (type != null) {
                return payloads.readValue(payload.json(), type);
            }
            if (payload.type() == null) {
                @SuppressWarnings("unchecked")
                T untyped = (T) payloads.readValue(payload.json(), Object.class);
                return untyped;
            }
            return payloads.readValue(payload.json(), recordedType(payload.type()));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new SerializationException("cannot deserialize " + what + " as "
                    + (type != null ? type.getName() : payload.type()) + ": " + originalMessage(e), e);
        }
    }

    /** The type a descriptor names, parsed once per descriptor (a replay decodes a result per step). */
    private JavaType recordedType(String descriptor) {
        JavaType known = recordedTypes.get(descriptor);
        if (known != null) {
            return known;
        }
        JavaType javaType = payloads.getTypeFactory().constructFromCanonical(descriptor);
        if (javaType.getRawClass() == Optional.class && !javaType.isReferenceType()) {
            // a type parsed from its name is not upgraded to a reference type: its content would decode as a map
            javaType = payloads.getTypeFactory().constructReferenceType(Optional.class, javaType.containedTypeOrUnknown(0));
        }
        if (recordedTypes.size() < MAX_RECORDED_TYPES) {
            recordedTypes.put(descriptor, javaType);
        }
        return javaType;
    }

    public String encodeEvent(Event event) {
        try {
            return events.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot serialize event " + event.type() + " #" + event.seq()
                    + " of run " + event.runId(), e);
        }
    }

    public Event decodeEvent(String json) {
        try {
            Event event = events.readValue(json, Event.class);
            if (event == null) {
                throw new SerializationException("cannot read event " + abbreviate(json) + ": not an event", null);
            }
            return event;
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot read event " + abbreviate(json) + ": " + e.getOriginalMessage(), e);
        }
    }

    /** A whole timeline as one JSON array, the format saved histories use. */
    public String encodeEvents(List<Event> timeline) {
        try {
            return eventListWriter.withDefaultPrettyPrinter().writeValueAsString(timeline);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot serialize a timeline of " + timeline.size() + " events", e);
        }
    }

    public List<Event> decodeEvents(String json) {
        try {
            return eventListReader.readValue(json);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot read a timeline: " + e.getOriginalMessage(), e);
        }
    }

    /** An empty Optional is recorded as JSON null; it must decode to {@code Optional.empty()}, not null. */
    private static boolean isOptional(Class<?> type, String recordedType) {
        return type != null ? type == Optional.class
                : recordedType != null && recordedType.startsWith(Optional.class.getName() + "<");
    }

    private static String originalMessage(Exception e) {
        return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "…";
    }

    /** A canonical type descriptor taken from the value, with element types of collections and maps. */
    static String describe(Object value) {
        if (value == null) {
            return "java.lang.Object";
        }
        if (value instanceof List<?> list) {
            return "java.util.List<" + describe(firstNonNull(list)) + ">";
        }
        if (value instanceof Set<?> set) {
            return "java.util.Set<" + describe(firstNonNull(set)) + ">";
        }
        if (value instanceof Collection<?> c) {
            return "java.util.Collection<" + describe(firstNonNull(c)) + ">";
        }
        if (value instanceof Map<?, ?> map) {
            Map.Entry<?, ?> e = map.isEmpty() ? null : map.entrySet().iterator().next();
            String k = e == null ? "java.lang.String" : describe(e.getKey());
            String v = e == null ? "java.lang.Object" : describe(e.getValue());
            return "java.util.Map<" + k + "," + v + ">";
        }
        if (value instanceof Optional<?> opt) {
            return "java.util.Optional<" + describe(opt.orElse(null)) + ">";
        }
        Class<?> type = value.getClass();
        if (type.isArray()) {
            return type.getName();
        }
        // before the anonymous check: an enum constant with a body is an anonymous subclass of its enum
        if (type.isEnum() || (type.getSuperclass() != null && type.getSuperclass().isEnum())) {
            return type.isEnum() ? type.getName() : type.getSuperclass().getName();
        }
        if (type.isAnonymousClass() || type.isHidden() || type.isSynthetic()) {
            throw new SerializationException("cannot record a value of class " + type.getName()
                    + ": anonymous, hidden and lambda classes cannot be decoded on replay", null);
        }
        return type.getName();
    }

    private static Object firstNonNull(Collection<?> c) {
        for (Object o : c) {
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    /**
     * A factory whose parse and write buffers are pooled across threads. Jackson's default pool is per thread,
     * which gives nothing on virtual threads (steps and loads run on new ones): every read and write would
     * allocate its buffers anew.
     */
    private static JsonFactory sharedBufferFactory() {
        return JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build();
    }

    private static ObjectMapper eventMapper() {
        SimpleModule module = new SimpleModule("worldflow-events");
        module.addSerializer(Payload.class, new PayloadSerializer());
        module.addDeserializer(Payload.class, new PayloadDeserializer());
        module.addSerializer(Instant.class, new InstantSerializer());
        module.addDeserializer(Instant.class, new InstantDeserializer());
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
        for (Class<?> c : LogRowCodec.eventRecords()) {
            mapper.registerSubtypes(new NamedType(c, c.getSimpleName()));
        }
        return mapper;
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    private interface EventMixin {
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
    private static final class InstantSerializer extends JsonSerializer<Instant> {
        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(IsoInstants.format(value));
        }
    }

    /** Reads the usual form directly; anything else goes to Jackson's own, which reads (or refuses) it as before. */
    private static final class InstantDeserializer extends JsonDeserializer<Instant> {
        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                Instant fast = IsoInstants.tryParse(p.getText());
                if (fast != null) {
                    return fast;
                }
            }
            return com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT.deserialize(p, ctxt);
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
