package io.worldflow;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name and type of a search attribute: a value a run carries so that runs can be found by it
 * ({@link RunQuery#withAttribute}). A run's attribute of one name has one type; a query by a key of another type does
 * not find it.
 *
 * <pre>{@code
 * static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
 * }</pre>
 *
 * @param name a letter, then up to 63 letters, digits, {@code _}, {@code -} or {@code .}
 * @param type the type of its values
 */
public record SearchKey<T>(String name, Type type) {

    public static final int MAX_NAME_LENGTH = 64;

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0," + (MAX_NAME_LENGTH - 1) + "}");

    /** The types a search attribute can have, each stored with its value. */
    public enum Type {
        STRING(String.class, "s"),
        LONG(Long.class, "l"),
        BOOLEAN(Boolean.class, "b"),
        INSTANT(Instant.class, "t");

        final Class<?> javaType;
        final String tag;

        Type(Class<?> javaType, String tag) {
            this.javaType = javaType;
            this.tag = tag;
        }

        /** The Java type of its values. */
        public Class<?> javaType() {
            return javaType;
        }

        /** The type whose values {@code value} is one of, or null when it is none (nor null). */
        public static Type of(Object value) {
            for (Type t : values()) {
                if (t.javaType.isInstance(value)) {
                    return t;
                }
            }
            return null;
        }
    }

    public SearchKey {
        Objects.requireNonNull(type, "type");
        checkName(name);
    }

    public static SearchKey<String> forString(String name) {
        return new SearchKey<>(name, Type.STRING);
    }

    public static SearchKey<Long> forLong(String name) {
        return new SearchKey<>(name, Type.LONG);
    }

    public static SearchKey<Boolean> forBoolean(String name) {
        return new SearchKey<>(name, Type.BOOLEAN);
    }

    public static SearchKey<Instant> forInstant(String name) {
        return new SearchKey<>(name, Type.INSTANT);
    }

    /**
     * @throws IllegalArgumentException naming the rule when {@code name} is not a search attribute's name
     */
    public static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("search attribute name must be a letter followed by up to "
                    + (MAX_NAME_LENGTH - 1) + " letters, digits, '_', '-' or '.', was "
                    + (name == null ? "null" : "'" + name + "'"));
        }
    }
}
