package io.worldflow.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.worldflow.Payload;
import io.worldflow.PayloadKeyException;
import io.worldflow.Secret;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.format.EventFormat;
import io.worldflow.runtime.internal.PayloadCipher;
import io.worldflow.runtime.internal.SecretValues;
import io.worldflow.spi.EventCodec;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON for payloads (workflow inputs and results, step results, signals) and for events. Payloads go
 * through a user-replaceable {@link ObjectMapper}; events through the fixed {@link EventFormat}, so every world stores
 * the same event format. A payload records a type descriptor taken from the value itself
 * ({@code java.util.List<com.acme.Label>}), so results decode on replay without a type token. A codec made
 * {@link #encrypting} stores every payload encrypted.
 */
public final class JsonCodec {

    /** Payloads above this many characters are refused with a {@link SerializationException}. */
    public static final int DEFAULT_MAX_PAYLOAD_CHARS = 2 * 1024 * 1024;

    private static final int MAX_RECORDED_TYPES = 4_096;

    /** The mapper given, before the codec's own module ({@link SecretValues}) is added to a copy of it. */
    private final ObjectMapper baseMapper;

    private final ObjectMapper payloads;
    private final EventFormat events = new EventFormat();
    private final int maxPayloadChars;
    /** Parsed type descriptors; a log names few types, and past this many the rest are parsed each time. */
    private final Map<String, JavaType> recordedTypes = new ConcurrentHashMap<>();
    /** Seals every payload written and opens those read, or null when payloads are stored in clear. */
    private final PayloadCipher cipher;
    /** Seals the value of each {@link Secret} written and opens those read, or null without keys. */
    private final PayloadCipher secrets;

    public JsonCodec() {
        this(defaultPayloadMapper(), DEFAULT_MAX_PAYLOAD_CHARS);
    }

    public JsonCodec(ObjectMapper payloadMapper, int maxPayloadChars) {
        this(payloadMapper, maxPayloadChars, null, null);
    }

    private JsonCodec(ObjectMapper payloadMapper, int maxPayloadChars, PayloadCipher cipher, PayloadCipher secrets) {
        this.baseMapper = Objects.requireNonNull(payloadMapper, "payloadMapper");
        if (maxPayloadChars < 16) {
            throw new IllegalArgumentException("maxPayloadChars must be at least 16, was " + maxPayloadChars);
        }
        // a copy: the module holds this codec's keys, and the mapper given may serve other codecs too
        this.payloads = payloadMapper.copy().registerModule(new SecretValues(secrets));
        this.maxPayloadChars = maxPayloadChars;
        this.cipher = cipher;
        this.secrets = secrets;
    }

    /**
     * This codec, encrypting every payload it writes with {@code keys}' current key (AES-256-GCM) and decrypting with
     * any of them; payloads written in clear before still read. {@code Worldflow.builder()} does this when
     * {@value PayloadKeys#KEYS} is set.
     */
    public JsonCodec encrypting(PayloadKeys keys) {
        Objects.requireNonNull(keys, "keys");
        return new JsonCodec(
                baseMapper,
                maxPayloadChars,
                new PayloadCipher(keys, PayloadCipher.Kind.PAYLOAD),
                new PayloadCipher(keys, PayloadCipher.Kind.SECRET));
    }

    /**
     * This codec, encrypting with {@code keys} only the values of the {@link Secret}s in payloads, the rest of each
     * payload in clear. {@code Worldflow.builder()} does this when {@value PayloadKeys#KEYS} is set and
     * {@value PayloadKeys#SCOPE} is {@code secrets}.
     */
    public JsonCodec sealingSecrets(PayloadKeys keys) {
        Objects.requireNonNull(keys, "keys");
        return new JsonCodec(baseMapper, maxPayloadChars, null, new PayloadCipher(keys, PayloadCipher.Kind.SECRET));
    }

    /** Whether payloads written are encrypted. */
    public boolean encrypts() {
        return cipher != null;
    }

    /**
     * The payload with its JSON in clear, for showing or exporting it: decrypted when it was encrypted.
     *
     * @throws PayloadKeyException    when it is encrypted under a key this codec does not have
     * @throws SerializationException when it was altered
     */
    public Payload reveal(Payload payload, String what) {
        if (payload == null || !PayloadCipher.isSealed(payload.json())) {
            return payload;
        }
        return new Payload(clear(payload, what), payload.type());
    }

    /**
     * The payload with its JSON in clear ({@link #reveal(Payload, String)}), and each {@link Secret} in it shown as
     * {@link Secret#MASK}, or with {@code secrets}, as its value.
     *
     * @throws PayloadKeyException    when it, or with {@code secrets} a secret in it, is encrypted under a key this codec
     *                                does not have
     * @throws SerializationException when it was altered
     */
    public Payload reveal(Payload payload, String what, boolean secrets) {
        Payload clear = reveal(payload, what);
        if (clear == null || !SecretValues.mayHoldSecrets(clear.json())) {
            return clear;
        }
        try {
            JsonNode tree = payloads.readTree(clear.json());
            PayloadCipher opener = secrets ? secretCipher(what) : null;
            return new Payload(
                    payloads.writeValueAsString(SecretValues.reveal(tree, opener, payloads, what)), clear.type());
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot read " + what + ": " + e.getOriginalMessage(), e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private PayloadCipher secretCipher(String what) {
        if (secrets == null) {
            throw new PayloadKeyException(
                    what + " holds secrets, and no payload keys are configured (" + PayloadKeys.KEYS + ")", "");
        }
        return secrets;
    }

    /** The payload's JSON in clear. */
    private String clear(Payload payload, String what) {
        String json = payload.json();
        if (!PayloadCipher.isSealed(json)) {
            return json;
        }
        if (cipher == null) {
            String id = PayloadCipher.keyId(json);
            throw new PayloadKeyException(
                    what + " is encrypted under key '" + id + "', and no payload keys are configured ("
                            + PayloadKeys.KEYS + ")",
                    id);
        }
        return cipher.open(json, payload.type(), what);
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
        return events;
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
        return sealed(inClear(value, what));
    }

    /** The value's payload with its JSON in clear, whether or not this codec encrypts. */
    private Payload inClear(Object value, String what) {
        if (value == null) {
            return Payload.NULL;
        }
        String json;
        try {
            json = payloads.writeValueAsString(value);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new SerializationException(
                    "cannot serialize " + what + " (" + value.getClass().getName() + ") to JSON: " + e.getMessage(), e);
        }
        if (json.length() > maxPayloadChars) {
            throw new SerializationException(
                    what + " is " + json.length() + " characters of JSON, above the limit of " + maxPayloadChars, null);
        }
        return new Payload(json, describe(value));
    }

    /** The payload as stored: sealed when this codec encrypts (the null value stays as it is). */
    private Payload sealed(Payload clear) {
        return cipher == null || clear == Payload.NULL
                ? clear
                : new Payload(cipher.seal(clear.json(), clear.type()), clear.type());
    }

    /** A value as written to the log, and as replay reads it back from there ({@link #encodeAndRead}). */
    public record Recorded(Payload payload, Object value) {}

    /**
     * Encodes a value and reads it back as replay would see it, from its JSON in clear: code that goes on with a value
     * it has just recorded goes on with what replay will give it, without decrypting what it has just encrypted.
     */
    public Recorded encodeAndRead(Object value, String what) {
        Payload clear = inClear(value, what);
        return new Recorded(sealed(clear), decode(clear, null, what));
    }

    /** Decodes a payload as {@code type}, or as its recorded type when {@code type} is null. */
    public <T> T decode(Payload payload, Class<T> type, String what) {
        if (payload == null || (payload.isNull() && !isOptional(type, payload.type()))) {
            return null;
        }
        String json = clear(payload, what);
        try {
            if (type != null) {
                return payloads.readValue(json, type);
            }
            if (payload.type() == null) {
                @SuppressWarnings("unchecked")
                T untyped = (T) payloads.readValue(json, Object.class);
                return untyped;
            }
            return payloads.readValue(json, recordedType(payload.type()));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // a secret under a key not held is a missing key, not a malformed payload: the run is held for it
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof PayloadKeyException missing) {
                    throw new PayloadKeyException(what + ": " + missing.getMessage(), missing.keyId(), e);
                }
            }
            throw new SerializationException(
                    "cannot deserialize " + what + " as " + (type != null ? type.getName() : payload.type()) + ": "
                            + originalMessage(e),
                    e);
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
            javaType = payloads.getTypeFactory()
                    .constructReferenceType(Optional.class, javaType.containedTypeOrUnknown(0));
        }
        if (recordedTypes.size() < MAX_RECORDED_TYPES) {
            recordedTypes.put(descriptor, javaType);
        }
        return javaType;
    }

    public String encodeEvent(Event event) {
        return events.encode(event);
    }

    public Event decodeEvent(String json) {
        return events.decode(json);
    }

    /** A whole timeline as one JSON array, the format saved histories use. */
    public String encodeEvents(List<Event> timeline) {
        return events.encodeTimeline(timeline);
    }

    public List<Event> decodeEvents(String json) {
        return events.decodeTimeline(json);
    }

    /** An empty Optional is recorded as JSON null; it must decode to {@code Optional.empty()}, not null. */
    private static boolean isOptional(Class<?> type, String recordedType) {
        return type != null
                ? type == Optional.class
                : recordedType != null && recordedType.startsWith(Optional.class.getName() + "<");
    }

    private static String originalMessage(Exception e) {
        return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
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
        if (value instanceof Secret<?> secret) {
            return Secret.class.getName() + "<" + describe(secret.value()) + ">";
        }
        Class<?> type = value.getClass();
        if (type.isArray()) {
            return type.getName();
        }
        // before the anonymous check: an enum constant with a body is an anonymous subclass of its enum
        if (type.isEnum()
                || (type.getSuperclass() != null && type.getSuperclass().isEnum())) {
            return type.isEnum() ? type.getName() : type.getSuperclass().getName();
        }
        if (type.isAnonymousClass() || type.isHidden() || type.isSynthetic()) {
            throw new SerializationException(
                    "cannot record a value of class " + type.getName()
                            + ": anonymous, hidden and lambda classes cannot be decoded on replay",
                    null);
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
        return JsonFactory.builder()
                .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
                .build();
    }
}
