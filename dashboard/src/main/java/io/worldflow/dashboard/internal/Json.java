package io.worldflow.dashboard.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.runtime.JsonCodec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The API's JSON: instants as ISO-8601 text, payloads embedded as the JSON they were stored as. */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private Json() {}

    static ObjectMapper mapper() {
        return MAPPER;
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("writing an API response", e);
        }
    }

    /**
     * A stored payload as a JSON tree, for embedding in a response: in clear when {@code codec} has its key, else as
     * stored (an encrypted payload then shows as its sealed string); each secret in it as {@code •••}, or with
     * {@code secrets} (a caller allowed to see them) as its value.
     */
    static JsonNode payload(Payload p, JsonCodec codec, boolean secrets) {
        if (p == null) {
            return NullNode.getInstance();
        }
        try {
            return MAPPER.readTree(reveal(p, codec, secrets).json());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("reading a stored payload", e);
        }
    }

    /** The payload in clear, its secrets masked unless {@code secrets}, when {@code codec} can; as stored otherwise. */
    static Payload reveal(Payload p, JsonCodec codec, boolean secrets) {
        try {
            return codec.reveal(p, "a payload", secrets);
        } catch (SerializationException e) {
            return p;
        }
    }

    /** A request body as a JSON tree; malformed JSON is a 400 naming the problem. */
    static JsonNode parse(byte[] body) {
        try {
            JsonNode node = MAPPER.readTree(body);
            return node == null ? NullNode.getInstance() : node;
        } catch (JsonProcessingException e) {
            throw new ApiException(
                    400, "malformed_json", "the request body is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String error(String code, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        return write(body);
    }
}
