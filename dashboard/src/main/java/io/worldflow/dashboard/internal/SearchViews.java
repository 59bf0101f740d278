package io.worldflow.dashboard.internal;

import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.spi.SearchValues;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Search attributes in the API. A filter is {@code attr=name:value} for a string, or {@code attr=name:type:value} with
 * type {@code string}, {@code long}, {@code boolean} or {@code instant} ({@code attr=note:string:a:b} for a string
 * with a {@code :}). A view is an object of name to value (a number, a boolean, a string or an instant's ISO text),
 * with the type of each beside it where an instant must be told from a string.
 */
final class SearchViews {

    /** The longest part of a filter a message repeats. */
    private static final int SHOWN = 80;

    private SearchViews() {}

    /**
     * The attributes of the {@code attr} filters; blank ones are none.
     *
     * @throws ApiException 400 naming the filter and what is wrong with it
     */
    static SearchAttributes filter(List<String> specs) {
        return parse("attr", specs);
    }

    /**
     * The attributes a run starts with, as the {@code searchAttributes} of a start's body gives them: a list of
     * {@code name:value} or {@code name:type:value}, as a filter.
     *
     * @throws ApiException 400 naming the field and what is wrong with an entry
     */
    static SearchAttributes parse(String field, List<String> specs) {
        SearchAttributes out = SearchAttributes.empty();
        for (String spec : specs) {
            if (spec == null || spec.isBlank()) {
                continue;
            }
            int colon = spec.indexOf(':');
            if (colon < 0) {
                throw bad(
                        field,
                        spec,
                        "is not name:value or name:type:value (type one of string, long, boolean, instant)");
            }
            String name = spec.substring(0, colon);
            try {
                SearchKey.checkName(name);
            } catch (IllegalArgumentException e) {
                throw bad(field, spec, "has a bad name: " + e.getMessage());
            }
            String rest = spec.substring(colon + 1);
            int second = rest.indexOf(':');
            SearchKey.Type type = second < 0 ? SearchKey.Type.STRING : type(field, spec, rest.substring(0, second));
            Object value = value(field, spec, type, second < 0 ? rest : rest.substring(second + 1));
            Object earlier = out.asMap().get(name);
            if (earlier != null && !earlier.equals(value)) {
                throw bad(field, spec, "names '" + name + "' again with another value; a run has one value of a name");
            }
            try {
                out = out.withValue(name, value);
            } catch (IllegalArgumentException e) {
                throw bad(field, spec, "is refused: " + e.getMessage());
            }
        }
        return out;
    }

    private static SearchKey.Type type(String field, String spec, String type) {
        try {
            return SearchKey.Type.valueOf(type.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw bad(
                    field,
                    spec,
                    "has unknown type '" + shown(type) + "'; use string, long, boolean or instant"
                            + " (name:string:value for a string that holds ':')");
        }
    }

    private static Object value(String field, String spec, SearchKey.Type type, String text) {
        return switch (type) {
            case STRING -> text;
            case LONG -> {
                try {
                    yield Long.parseLong(text.strip());
                } catch (NumberFormatException e) {
                    throw bad(field, spec, "has a value that is not a long (a whole number): '" + shown(text) + "'");
                }
            }
            case BOOLEAN ->
                switch (text.strip().toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default ->
                        throw bad(
                                field,
                                spec,
                                "has a value that is not a boolean (true or false): '" + shown(text) + "'");
                };
            case INSTANT -> {
                try {
                    yield Instant.parse(text.strip());
                } catch (DateTimeParseException e) {
                    throw bad(
                            field,
                            spec,
                            "has a value that is not an instant (ISO-8601, such as 2026-03-01T00:00:00Z): '"
                                    + shown(text) + "'");
                }
            }
        };
    }

    private static ApiException bad(String field, String spec, String problem) {
        return ApiException.badRequest("'" + field + "' '" + shown(spec) + "' " + problem);
    }

    private static String shown(String text) {
        return text.length() > SHOWN ? text.substring(0, SHOWN) + "…" : text;
    }

    /** Name to value, in name order: strings, numbers, booleans and instants (which JSON writes as ISO text). */
    static Map<String, Object> values(SearchAttributes attributes) {
        return new LinkedHashMap<>(attributes.asMap());
    }

    /** Name to type ({@code string}, {@code long}, {@code boolean}, {@code instant}), in name order. */
    static Map<String, String> types(SearchAttributes attributes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : attributes.names()) {
            out.put(name, typeName(attributes.typeOf(name)));
        }
        return out;
    }

    private static String typeName(SearchKey.Type type) {
        return type.name().toLowerCase(Locale.ROOT);
    }

    /**
     * A change as the log stores it ({@link SearchValues}) read back: {@code values} is name to value in order, null
     * for an attribute removed, and {@code types} the type of each value set.
     *
     * @throws IllegalArgumentException when an entry is not a stored change
     */
    static Change change(List<String> entries) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        SearchValues.parse(entries).forEach((name, stored) -> {
            Object value = stored == null ? null : SearchValues.decode(stored);
            values.put(name, value);
            if (value != null) {
                types.put(name, typeName(SearchKey.Type.of(value)));
            }
        });
        return new Change(values, types);
    }

    /** A change of a run's search attributes: name to value (null for one removed), and name to type of those set. */
    record Change(Map<String, Object> values, Map<String, String> types) {}
}
