package io.worldflow.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.worldflow.runtime.JsonCodec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;

/** What {@code --json} prints: one JSON document, instants as ISO-8601 text, for scripts and {@code jq}. */
public final class JsonOutput {

    private static final ObjectMapper MAPPER =
            JsonCodec.defaultPayloadMapper().copy().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonOutput() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    static void print(PrintWriter out, Object value) {
        try {
            out.println(MAPPER.writeValueAsString(value));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("writing JSON output", e);
        }
    }
}
