package io.worldflow.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.ErrorInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** A {@link RunQuery} as the API's query parameters, and the API's JSON values read back. */
final class ServerQueries {

    private ServerQueries() {}

    /** The filters of {@code q}, and with {@code paged} its limit and cursor, as {@code GET /api/runs} takes them. */
    static String of(RunQuery q, boolean paged) {
        StringJoiner out = new StringJoiner("&");
        if (!q.statuses().isEmpty()) {
            add(
                    out,
                    "status",
                    q.statuses().stream().map(RunStatus::name).sorted().collect(Collectors.joining(",")));
        }
        if (q.held() != null) {
            add(out, "held", q.held().toString());
        }
        add(out, "workflow", q.workflow());
        add(out, "idPrefix", q.idPrefix());
        add(out, "parent", q.parent());
        add(out, "queue", q.queue());
        add(out, "createdAfter", q.createdAfter());
        add(out, "createdBefore", q.createdBefore());
        add(out, "updatedAfter", q.updatedAfter());
        add(out, "updatedBefore", q.updatedBefore());
        SearchAttributes attributes = q.attributes();
        for (String name : attributes.names()) {
            // always typed, so that a string holding ':' and a number stay what they are
            String type = attributes.typeOf(name).name().toLowerCase(Locale.ROOT);
            add(out, "attr", name + ":" + type + ":" + attributes.asMap().get(name));
        }
        if (paged) {
            add(out, "limit", Integer.toString(q.limit()));
            add(out, "cursor", q.cursor());
        }
        return out.toString();
    }

    private static void add(StringJoiner out, String name, Object value) {
        if (value != null) {
            out.add(name + "=" + param(value.toString()));
        }
    }

    static String param(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** A JSON string, or null for JSON null or a missing field. */
    static String text(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? null : n.asText();
    }

    static Instant instant(JsonNode n) {
        String t = text(n);
        return t == null ? null : Instant.parse(t);
    }

    /** An error as the API writes it ({@code type}, {@code message}, …) in the one line the world's own gives. */
    static String error(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        return ErrorInfo.of(n.path("type").asText(), text(n.path("message"))).summary();
    }

    /** Search attributes, name to value in name order, as plain values (instants as their ISO text). */
    static Map<String, Object> attributes(JsonNode values, ObjectMapper mapper) {
        Map<String, Object> out = new TreeMap<>();
        values.properties().forEach(e -> out.put(e.getKey(), mapper.convertValue(e.getValue(), Object.class)));
        return new LinkedHashMap<>(out);
    }
}
