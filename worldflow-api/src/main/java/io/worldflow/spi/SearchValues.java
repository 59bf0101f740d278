package io.worldflow.spi;

import io.worldflow.SearchAttributes;
import io.worldflow.event.Event;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.WorkflowStarted;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Search attributes as the log and the worlds store them: each value as text, its type's tag first, so that one
 * column or one key compares them, a value of one type never equal to a value of another: {@code s:<text>},
 * {@code l:<decimal>}, {@code b:true|false}, {@code t:<ISO-8601 instant>}. A change in the log is a list of
 * {@code name=<encoded value>} for a value set and {@code name} alone for one removed.
 */
public final class SearchValues {

    private SearchValues() {}

    /** {@code value}, which is a String, Long, Boolean or Instant, as stored. */
    public static String encode(Object value) {
        return switch (value) {
            case String s -> "s:" + s;
            case Long l -> "l:" + l;
            case Boolean b -> "b:" + b;
            case Instant t -> "t:" + t;
            default -> throw new IllegalArgumentException("not a search attribute's value: " + value);
        };
    }

    /** Name to stored value, in name order. */
    public static Map<String, String> encode(SearchAttributes attributes) {
        Map<String, String> out = new TreeMap<>();
        attributes.asMap().forEach((name, value) -> out.put(name, encode(value)));
        return out;
    }

    /**
     * A stored value read back.
     *
     * @throws IllegalArgumentException when {@code stored} is not a stored value
     */
    public static Object decode(String stored) {
        if (stored == null || stored.length() < 2 || stored.charAt(1) != ':') {
            throw new IllegalArgumentException("not a stored search attribute value: " + stored);
        }
        String text = stored.substring(2);
        try {
            return switch (stored.charAt(0)) {
                case 's' -> text;
                case 'l' -> Long.parseLong(text);
                case 'b' -> text.equals("true") || text.equals("false") ? Boolean.valueOf(text) : bad();
                case 't' -> Instant.parse(text);
                default -> bad();
            };
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("not a stored search attribute value: " + stored, e);
        }
    }

    private static Object bad() {
        throw new IllegalArgumentException("no such type or value");
    }

    /** Stored values read back; null or empty for none. */
    public static SearchAttributes decode(Map<String, String> stored) {
        if (stored == null || stored.isEmpty()) {
            return SearchAttributes.empty();
        }
        Map<String, Object> values = new LinkedHashMap<>();
        stored.forEach((name, value) -> values.put(name, decode(value)));
        return SearchAttributes.of(values);
    }

    /** The entries of a change: each of {@code set}, then each of {@code removed}. */
    public static List<String> changes(SearchAttributes set, Collection<String> removed) {
        List<String> out = new ArrayList<>();
        encode(set).forEach((name, value) -> out.add(name + "=" + value));
        out.addAll(removed);
        return out;
    }

    /** {@code current} after the changes {@code entries}. */
    public static SearchAttributes apply(SearchAttributes current, List<String> entries) {
        SearchAttributes a = current;
        for (Map.Entry<String, String> c : parse(entries).entrySet()) {
            a = c.getValue() == null ? a.without(c.getKey()) : a.withValue(c.getKey(), decode(c.getValue()));
        }
        return a;
    }

    /**
     * The entries of one change as a map, in their order (a name given twice keeps its last): name to stored value,
     * null for a value removed.
     */
    public static Map<String, String> parse(List<String> entries) {
        Map<String, String> out = new LinkedHashMap<>();
        merge(out, entries);
        return out;
    }

    private static void merge(Map<String, String> into, List<String> entries) {
        for (String entry : entries) {
            int eq = entry.indexOf('=');
            if (eq < 0) {
                into.put(entry, null);
            } else {
                into.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
    }

    /**
     * What {@code events} change of their run's search attributes, merged in order: name to stored value, null for
     * a value removed. Empty when they change none.
     */
    public static Map<String, String> changes(List<Event> events) {
        Map<String, String> out = null;
        for (Event e : events) {
            List<String> entries = switch (e) {
                case SearchAttributesUpdated u -> u.attributes();
                case WorkflowStarted s -> s.searchAttributes();
                default -> null;
            };
            if (entries == null || entries.isEmpty()) {
                continue;
            }
            if (out == null) {
                out = new TreeMap<>();
            }
            merge(out, entries);
        }
        return out == null ? Map.of() : out;
    }
}
