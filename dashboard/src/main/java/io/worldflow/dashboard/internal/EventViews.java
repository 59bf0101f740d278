package io.worldflow.dashboard.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.Payload;
import io.worldflow.event.Event;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.JsonCodec;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Events as the API shows them: each event as the codec writes it, except that a payload reads as the user's value
 * and its type descriptor stands beside it as {@code <name>Type}. Where the codec's envelope is
 * {@code "input": {"type": "com.acme.Orders$Input", "value": {"sku": "A-1"}}}, this writes
 * {@code "input": {"sku": "A-1"}, "inputType": "com.acme.Orders$Input"}. Nothing is dropped, and the value's JSON is
 * written as it was stored (12.50 stays 12.50). Payloads are found by the declared type of the event's components.
 *
 * <p>Search attributes read the same way: where the codec writes a change as its stored entries
 * ({@code "attributes": ["customer=s:42", "vip"]}), this writes name to value, null for one removed, with the type of
 * each value set beside it: {@code "attributes": {"customer": "42", "vip": null}, "attributeTypes": {"customer":
 * "string"}}; a {@code WorkflowStarted}'s {@code searchAttributes} have {@code searchAttributeTypes} beside them.
 */
final class EventViews {

    private static final ClassValue<List<RecordComponent>> PAYLOADS = new ClassValue<>() {
        @Override
        protected List<RecordComponent> computeValue(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            return components == null
                    ? List.of()
                    : Arrays.stream(components)
                            .filter(c -> c.getType() == Payload.class)
                            .toList();
        }
    };

    /** The field beside each list of search attribute entries that gives the type of each value set. */
    private static final Map<String, String> SEARCH_TYPES =
            Map.of("searchAttributes", "searchAttributeTypes", "attributes", "attributeTypes");

    private EventViews() {}

    /** A timeline as a JSON array, in order. */
    static String write(JsonCodec codec, List<Event> events, boolean secrets) {
        StringWriter out = new StringWriter();
        try (JsonGenerator gen = Json.mapper().createGenerator(out)) {
            gen.useDefaultPrettyPrinter();
            gen.writeStartArray();
            for (Event event : events) {
                write(gen, codec, event, secrets);
            }
            gen.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing a timeline", e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator gen, JsonCodec codec, Event event, boolean secrets) throws IOException {
        Map<String, Payload> payloads = new HashMap<>();
        payloads(event).forEach((name, p) -> payloads.put(name, Json.reveal(p, codec, secrets)));
        JsonNode encoded = Json.mapper().readTree(codec.encodeEvent(event));
        Map<String, SearchViews.Change> changes = searchChanges(event);
        gen.writeStartObject();
        for (Map.Entry<String, JsonNode> field : encoded.properties()) {
            gen.writeFieldName(field.getKey());
            SearchViews.Change change = changes.get(field.getKey());
            if (change != null) {
                gen.writeObject(change.values());
                gen.writeObjectField(SEARCH_TYPES.get(field.getKey()), change.types());
                continue;
            }
            Payload payload = payloads.get(field.getKey());
            if (payload == null) {
                gen.writeTree(field.getValue());
                continue;
            }
            gen.writeRawValue(payload.json());
            if (payload.type() != null) {
                gen.writeStringField(field.getKey() + "Type", payload.type());
            }
        }
        gen.writeEndObject();
    }

    /**
     * The event's search attribute entries read back, by component name; none when it has none, or when one is not as
     * the log stores them (then the codec's form stands).
     */
    private static Map<String, SearchViews.Change> searchChanges(Event event) {
        List<String> entries = switch (event) {
            case SearchAttributesUpdated u -> u.attributes();
            case WorkflowStarted w -> w.searchAttributes();
            default -> null;
        };
        if (entries == null || entries.isEmpty()) {
            return Map.of();
        }
        try {
            return Map.of(
                    event instanceof WorkflowStarted ? "searchAttributes" : "attributes", SearchViews.change(entries));
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }

    /** The event's payloads that are not null, by component name. */
    private static Map<String, Payload> payloads(Event event) {
        Map<String, Payload> out = new LinkedHashMap<>();
        for (RecordComponent c : PAYLOADS.get(event.getClass())) {
            try {
                Payload p = (Payload) c.getAccessor().invoke(event);
                if (p != null) {
                    out.put(c.getName(), p);
                }
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("reading " + c.getName() + " of " + event.type(), e);
            }
        }
        return out;
    }
}
