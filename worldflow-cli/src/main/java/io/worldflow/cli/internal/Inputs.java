package io.worldflow.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.cli.ExitCodes;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Values the options take, read with messages that name the option and show a value that would do. */
final class Inputs {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private Inputs() {}

    /** An ISO-8601 instant ({@code 2026-11-27T10:00:00Z}) or a day ({@code 2026-11-27}, its start in UTC). */
    static final class InstantConverter implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            try {
                return value.length() == 10 ? Instant.parse(value + "T00:00:00Z") : Instant.parse(value.strip());
            } catch (DateTimeParseException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not an instant such as 2026-11-27T10:00:00Z or a day such as 2026-11-27");
            }
        }
    }

    /** ISO-8601 ({@code PT1H}) or as configuration writes durations ({@code 500ms}, {@code 30s}, {@code 2h}, {@code 1d}). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            Matcher m = SHORT_DURATION.matcher(v);
            try {
                if (m.matches()) {
                    long n = Long.parseLong(m.group(1));
                    return switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofDays(n);
                    };
                }
                return Duration.parse(value.strip());
            } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a duration such as PT1H, 30m or 2d");
            }
        }
    }

    /**
     * Search attribute filters as the HTTP API takes them: {@code name:value} for a string, or {@code
     * name:type:value} with type {@code string}, {@code long}, {@code boolean} or {@code instant}.
     */
    static SearchAttributes attributes(List<String> specs) {
        SearchAttributes out = SearchAttributes.empty();
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            if (colon <= 0) {
                throw badAttr(spec, "is not name:value or name:type:value (type string, long, boolean or instant)");
            }
            String name = spec.substring(0, colon);
            String rest = spec.substring(colon + 1);
            int second = rest.indexOf(':');
            SearchKey.Type type = SearchKey.Type.STRING;
            String text = rest;
            if (second >= 0) {
                try {
                    type = SearchKey.Type.valueOf(rest.substring(0, second).toUpperCase(Locale.ROOT));
                    text = rest.substring(second + 1);
                } catch (IllegalArgumentException e) {
                    // not a type: a string value that holds ':' itself
                }
            }
            try {
                out = out.withValue(name, value(type, text));
            } catch (IllegalArgumentException e) {
                throw badAttr(spec, "is refused: " + e.getMessage());
            }
        }
        return out;
    }

    private static Object value(SearchKey.Type type, String text) {
        return switch (type) {
            case STRING -> text;
            case LONG -> {
                try {
                    yield Long.parseLong(text.strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a long (a whole number)");
                }
            }
            case BOOLEAN ->
                switch (text.strip().toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
                };
            case INSTANT -> new InstantConverter().convert(text);
        };
    }

    private static CliException badAttr(String spec, String problem) {
        return new CliException(ExitCodes.USAGE, "--attr '" + spec + "' " + problem);
    }

    /** A signal's payload: the JSON of {@code --json}, or of the file {@code --json-file} names ({@code -} for stdin). */
    static JsonNode payload(String json, Path file) {
        String text;
        String what;
        if (file != null) {
            what = "--json-file " + file;
            try {
                text = file.toString().equals("-")
                        ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(file);
            } catch (NoSuchFileException e) {
                throw new CliException(ExitCodes.USAGE, what + ": no such file");
            } catch (IOException e) {
                throw new CliException(ExitCodes.USAGE, what + ": cannot read it: " + e.getMessage());
            }
        } else {
            what = "--json";
            text = json == null ? "null" : json;
        }
        try {
            // a value followed by more (two objects, a stray brace) is malformed too, not its first value
            JsonNode node = JsonOutput.mapper()
                    .readerFor(JsonNode.class)
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readValue(text);
            if (node == null || node.isMissingNode()) {
                throw new CliException(ExitCodes.USAGE, what + " is empty: give a JSON value such as {\"ok\":true}");
            }
            return node;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ")";
            throw new CliException(ExitCodes.USAGE, what + " is not valid JSON: " + e.getOriginalMessage() + where);
        }
    }
}
