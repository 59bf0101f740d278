package io.worldflow.format.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A payload's type name as the log stores it: the common types of {@code java.lang} and {@code java.util} by their
 * simple names ({@code Map<String,Integer>} for {@code java.util.Map<java.lang.String,java.lang.Integer>}), every
 * other name in full. A step's result carries its type in each record, and these names are most of it.
 *
 * <p>A class of the default package whose name is one of those simple names is stored after a {@code /}, which no
 * class name holds, so that every stored name reads back as the name that was written.
 */
final class StoredTypeNames {

    private static final char ESCAPE = '/';
    private static final int MAX_CACHED = 1_024;
    private static final Map<String, String> SIMPLE_TO_FULL;

    static {
        Map<String, String> names = new HashMap<>();
        for (String lang : List.of(
                "Boolean",
                "Byte",
                "Character",
                "Double",
                "Float",
                "Integer",
                "Long",
                "Number",
                "Object",
                "Short",
                "String",
                "Void")) {
            names.put(lang, "java.lang." + lang);
        }
        for (String util : List.of(
                "ArrayList",
                "Collection",
                "HashMap",
                "HashSet",
                "LinkedHashMap",
                "LinkedHashSet",
                "LinkedList",
                "List",
                "Map",
                "Optional",
                "Set",
                "TreeMap",
                "TreeSet",
                "UUID")) {
            names.put(util, "java.util." + util);
        }
        SIMPLE_TO_FULL = Map.copyOf(names);
    }

    private static final Map<String, String> FULL_TO_SIMPLE = inverse(SIMPLE_TO_FULL);
    private static final Map<String, String> SHORTENED = new ConcurrentHashMap<>();
    private static final Map<String, String> EXPANDED = new ConcurrentHashMap<>();

    private StoredTypeNames() {}

    /** The stored form of a payload's type name ({@link io.worldflow.Payload#type()}). */
    static String shorten(String type) {
        return cached(SHORTENED, type, true);
    }

    /** The type name that {@link #shorten} stored as {@code stored}; a name stored in full comes back as it is. */
    static String expand(String stored) {
        return cached(EXPANDED, stored, false);
    }

    /** {@link #rewrite}, remembered for the first {@link #MAX_CACHED} texts: a log holds few distinct types. */
    private static String cached(Map<String, String> cache, String text, boolean shorten) {
        String known = cache.get(text);
        if (known == null) {
            known = rewrite(text, shorten);
            if (cache.size() < MAX_CACHED) {
                cache.put(text, known);
            }
        }
        return known;
    }

    /** Each name between the delimiters of type arguments ({@code <}, {@code ,}, {@code >}) shortened or expanded. */
    private static String rewrite(String text, boolean shorten) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || isDelimiter(text.charAt(i))) {
                String name = text.substring(start, i);
                out.append(shorten ? shortName(name) : fullName(name));
                if (i < text.length()) {
                    out.append(text.charAt(i));
                }
                start = i + 1;
            }
        }
        return out.toString();
    }

    private static boolean isDelimiter(char c) {
        return c == '<' || c == ',' || c == '>';
    }

    private static String shortName(String name) {
        String simple = FULL_TO_SIMPLE.get(name);
        if (simple != null) {
            return simple;
        }
        boolean taken = SIMPLE_TO_FULL.containsKey(name) || !name.isEmpty() && name.charAt(0) == ESCAPE;
        return taken ? ESCAPE + name : name;
    }

    private static String fullName(String stored) {
        if (!stored.isEmpty() && stored.charAt(0) == ESCAPE) {
            return stored.substring(1);
        }
        return SIMPLE_TO_FULL.getOrDefault(stored, stored);
    }

    private static Map<String, String> inverse(Map<String, String> map) {
        Map<String, String> inverse = new HashMap<>();
        map.forEach((k, v) -> inverse.put(v, k));
        return Map.copyOf(inverse);
    }
}
