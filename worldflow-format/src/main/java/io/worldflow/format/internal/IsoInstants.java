package io.worldflow.format.internal;

import java.time.Instant;
import java.time.LocalDate;

/**
 * The event log's instants as text, the form {@link Instant#toString()} writes ({@code 2026-11-22T04:58:40.409133836Z}:
 * seconds always, the fraction in groups of three digits as needed), without the general formatter on the common
 * path: years 0000–9999 are written and read directly, anything else goes through {@link Instant#toString()} and
 * {@link Instant#parse}. A replay reads an instant per event, so this is on the hot path.
 */
final class IsoInstants {

    private static final int SECONDS_PER_DAY = 86_400;

    private IsoInstants() {}

    /** Exactly {@code instant.toString()}. */
    static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        long day = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        LocalDate date =
                day >= -719_528 && day <= 2_932_896 ? LocalDate.ofEpochDay(day) : null; // 0000-01-01..9999-12-31
        if (date == null) {
            return instant.toString();
        }
        int nano = instant.getNano();
        int digits = nano == 0 ? 0 : nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
        char[] out = new char[20 + (digits == 0 ? 0 : digits + 1)];
        put(out, 0, date.getYear(), 4);
        out[4] = '-';
        put(out, 5, date.getMonthValue(), 2);
        out[7] = '-';
        put(out, 8, date.getDayOfMonth(), 2);
        out[10] = 'T';
        put(out, 11, secondOfDay / 3600, 2);
        out[13] = ':';
        put(out, 14, secondOfDay / 60 % 60, 2);
        out[16] = ':';
        put(out, 17, secondOfDay % 60, 2);
        int at = 19;
        if (digits > 0) {
            out[at++] = '.';
            int fraction = digits == 3 ? nano / 1_000_000 : digits == 6 ? nano / 1_000 : nano;
            put(out, at, fraction, digits);
            at += digits;
        }
        out[at] = 'Z';
        return new String(out);
    }

    /**
     * The instant of {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, as {@link Instant#parse} reads it; null for any other
     * text, which the caller leaves to the general parser (other forms, and errors, are its business).
     */
    static Instant tryParse(String s) {
        int n = s.length();
        if (n < 20
                || n > 30
                || s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':'
                || s.charAt(n - 1) != 'Z') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0
                || month < 1
                || month > 12
                || day < 1
                || day > 28 && day > LocalDate.of(year, month, 1).lengthOfMonth()
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59) {
            return null;
        }
        int nano = 0;
        if (n > 20) {
            int fractionDigits = n - 21;
            if (s.charAt(19) != '.' || fractionDigits < 1) {
                return null;
            }
            int fraction = digits(s, 20, fractionDigits);
            if (fraction < 0) {
                return null;
            }
            for (int i = fractionDigits; i < 9; i++) {
                fraction *= 10;
            }
            nano = fraction;
        } else if (s.charAt(19) != 'Z') {
            return null;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second, nano);
    }

    /** The decimal number of {@code count} ASCII digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(String s, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static void put(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
