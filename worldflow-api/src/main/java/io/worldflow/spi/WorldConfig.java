package io.worldflow.spi;

import io.worldflow.ConfigurationException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Configuration as resolved key/value pairs ({@code worldflow.local.path=...}), with typed getters that
 * fail naming the key and the bad value.
 */
public final class WorldConfig {

    private final Map<String, String> values;

    public WorldConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public static WorldConfig of(Map<String, String> values) {
        return new WorldConfig(values);
    }

    public Map<String, String> asMap() {
        return new TreeMap<>(values);
    }

    public Optional<String> get(String key) {
        String v = values.get(key);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
    }

    public String get(String key, String fallback) {
        return get(key).orElse(fallback);
    }

    public String require(String key) {
        return get(key).orElseThrow(() -> new ConfigurationException("missing configuration key " + key));
    }

    public int getInt(String key, int fallback) {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.get());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(key + " must be a whole number, was '" + v.get() + "'", e);
        }
    }

    public boolean getBoolean(String key, boolean fallback) {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return fallback;
        }
        return switch (v.get().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new ConfigurationException(key + " must be true or false, was '" + v.get() + "'");
        };
    }

    /**
     * {@link #getInt(String, int)} within {@code min..max}.
     *
     * @throws ConfigurationException naming the key, the range and the value when it falls outside
     */
    public int getInt(String key, int fallback, int min, int max) {
        int value = getInt(key, fallback);
        if (value < min || value > max) {
            throw new ConfigurationException(key + " must be " + min + ".." + max + ", was " + value);
        }
        return value;
    }

    /**
     * {@link #getDuration(String, Duration)} within {@code min..max}.
     *
     * @param max the longest allowed, or null for no bound
     * @throws ConfigurationException naming the key, the range and the value when it falls outside
     */
    public Duration getDuration(String key, Duration fallback, Duration min, Duration max) {
        Duration value = getDuration(key, fallback);
        if (value.compareTo(min) < 0 || (max != null && value.compareTo(max) > 0)) {
            String range = max == null ? "at least " + shown(min) : shown(min) + ".." + shown(max);
            throw new ConfigurationException(key + " must be " + range + ", was " + shown(value));
        }
        return value;
    }

    /** A duration as a configuration value spells it: {@code 250ms}, {@code 30s}. */
    private static String shown(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** A duration as {@code 250ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601 ({@code PT30S}). */
    public Duration getDuration(String key, Duration fallback) {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return fallback;
        }
        return parseDuration(key, v.get());
    }

    static Duration parseDuration(String key, String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            int split = 0;
            while (split < t.length() && (Character.isDigit(t.charAt(split)))) {
                split++;
            }
            if (split == 0) {
                throw new NumberFormatException(text);
            }
            long n = Long.parseLong(t.substring(0, split));
            String unit = t.substring(split).strip();
            if (unit.isEmpty()) {
                // no unit is read as neither: a Spring application reads a bare number as milliseconds, other tools
                // as seconds, and a grace of 10000 taken for ten seconds would be almost three hours
                throw new ConfigurationException(key + " must be a duration with its unit, such as " + n + "ms or " + n
                        + "s, was '" + text + "'");
            }
            return switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> throw new NumberFormatException(text);
            };
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw new ConfigurationException(
                    key + " must be a duration in ms, s, m, h or d (500ms, 30s, 90d) or ISO-8601 (PT30S), was '" + text
                            + "'",
                    e);
        }
    }

    /** A copy with one more (or a changed) key. */
    public WorldConfig with(String key, String value) {
        Objects.requireNonNull(key, "key");
        Map<String, String> copy = new TreeMap<>(values);
        if (value == null) {
            copy.remove(key);
        } else {
            copy.put(key, value);
        }
        return new WorldConfig(copy);
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        values.forEach((k, v) -> shown.put(k, isSecret(k) ? "****" : v));
        return shown.toString();
    }

    private static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("token");
    }
}
