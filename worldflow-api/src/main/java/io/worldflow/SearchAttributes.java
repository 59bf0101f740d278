package io.worldflow;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Typed values a run carries to be found by ({@link RunQuery#withAttribute}): set when it starts
 * ({@link StartOptions#withSearchAttributes}) and changed by its workflow
 * ({@link WorkflowContext#upsertSearchAttributes}), each change recorded in its log. Immutable; names in order.
 *
 * <p>Search attributes are indexed, so they are stored in clear even when payloads are encrypted: keep personal data
 * and secrets out of them.
 */
public final class SearchAttributes {

    /** The most attributes one run carries. */
    public static final int MAX_ATTRIBUTES = 32;

    /** The longest string value, in characters. */
    public static final int MAX_STRING_LENGTH = 256;

    private static final SearchAttributes EMPTY = new SearchAttributes(new TreeMap<>());

    private final TreeMap<String, Object> values;

    private SearchAttributes(TreeMap<String, Object> values) {
        this.values = values;
    }

    public static SearchAttributes empty() {
        return EMPTY;
    }

    public static <T> SearchAttributes of(SearchKey<T> key, T value) {
        return EMPTY.with(key, value);
    }

    /**
     * Attributes whose types are those of their values: {@link String}, {@link Long} (or {@link Integer}),
     * {@link Boolean}, {@link Instant}.
     *
     * @throws IllegalArgumentException naming the attribute when a name or a value is not allowed
     */
    public static SearchAttributes of(Map<String, ?> values) {
        SearchAttributes a = EMPTY;
        for (Map.Entry<String, ?> e : values.entrySet()) {
            a = a.withValue(e.getKey(), e.getValue());
        }
        return a;
    }

    /**
     * These attributes and {@code key} = {@code value}, in place of a value of that name.
     *
     * @throws IllegalArgumentException when the value is null, a string is longer than {@link #MAX_STRING_LENGTH}, or
     *                                  there would be more than {@link #MAX_ATTRIBUTES}
     */
    public <T> SearchAttributes with(SearchKey<T> key, T value) {
        Objects.requireNonNull(key, "key");
        return put(key.name(), key.type(), value);
    }

    /** These attributes with {@code name} set to a value of its own type (see {@link #of(Map)}). */
    public SearchAttributes withValue(String name, Object value) {
        SearchKey.checkName(name);
        if (value instanceof Integer i) {
            value = i.longValue();
        }
        SearchKey.Type type = SearchKey.Type.of(value);
        if (type != null) {
            return put(name, type, value);
        }
        throw new IllegalArgumentException("search attribute '" + name + "' is "
                + (value == null ? "null" : "a " + value.getClass().getSimpleName())
                + "; a search attribute is a String, Long, Boolean or Instant");
    }

    /** These attributes and those of {@code other}, whose values win. */
    public SearchAttributes withAll(SearchAttributes other) {
        SearchAttributes a = this;
        for (Map.Entry<String, Object> e : other.values.entrySet()) {
            a = a.withValue(e.getKey(), e.getValue());
        }
        return a;
    }

    /** These attributes without the one named {@code name}, if there is one. */
    public SearchAttributes without(String name) {
        if (!values.containsKey(name)) {
            return this;
        }
        TreeMap<String, Object> copy = new TreeMap<>(values);
        copy.remove(name);
        return new SearchAttributes(copy);
    }

    private SearchAttributes put(String name, SearchKey.Type type, Object value) {
        SearchKey.checkName(name);
        if (value == null) {
            throw new IllegalArgumentException("search attribute '" + name + "' has no value; remove it instead");
        }
        if (!type.javaType.isInstance(value)) {
            throw new IllegalArgumentException("search attribute '" + name + "' is of type " + type + ", not a "
                    + value.getClass().getSimpleName());
        }
        if (value instanceof String s && s.length() > MAX_STRING_LENGTH) {
            throw new IllegalArgumentException("search attribute '" + name + "' is " + s.length()
                    + " chars long as Java counts them (String.length(): a character outside the Basic Multilingual"
                    + " Plane, such as an emoji, counts twice); a value has at most " + MAX_STRING_LENGTH);
        }
        if (!values.containsKey(name) && values.size() >= MAX_ATTRIBUTES) {
            throw new IllegalArgumentException(
                    "a run carries at most " + MAX_ATTRIBUTES + " search attributes; '" + name + "' would be one more");
        }
        TreeMap<String, Object> copy = new TreeMap<>(values);
        copy.put(name, value);
        return new SearchAttributes(copy);
    }

    /** The value of {@code key}, or null when there is none or it has another type. */
    public <T> T get(SearchKey<T> key) {
        Object v = values.get(key.name());
        return key.type().javaType.isInstance(v) ? (T) key.type().javaType.cast(v) : null;
    }

    /** The type of the attribute named {@code name}, or null when there is none. */
    public SearchKey.Type typeOf(String name) {
        return SearchKey.Type.of(values.get(name));
    }

    public Set<String> names() {
        return Collections.unmodifiableSet(values.keySet());
    }

    /** Name to value, in name order; each value a String, Long, Boolean or Instant. */
    public Map<String, Object> asMap() {
        return Collections.unmodifiableMap(values);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public int size() {
        return values.size();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SearchAttributes a && a.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
