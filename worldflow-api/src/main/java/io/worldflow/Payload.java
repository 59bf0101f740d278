package io.worldflow;

import java.util.Objects;

/**
 * A value as stored in the event log: its JSON text and a type descriptor the codec can decode it with
 * (a class name, with type arguments for collections: {@code java.util.List<com.acme.Label>}).
 *
 * @param json the JSON text; {@code "null"} for no value
 * @param type the type descriptor, or null when the value is null or its type is given by the caller
 */
public record Payload(String json, String type) {

    public static final Payload NULL = new Payload("null", null);

    public Payload {
        Objects.requireNonNull(json, "json");
    }

    public boolean isNull() {
        return "null".equals(json);
    }

    /** Size of the JSON text in characters. */
    public int size() {
        return json.length();
    }
}
