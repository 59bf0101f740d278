package io.worldflow.world.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Instants as stored: epoch microseconds in a 64-bit integer column ({@code INTEGER} in SQLite, {@code bigint}
 * in PostgreSQL). Sub-microsecond digits are dropped; instants beyond the {@code long} range saturate.
 */
public final class Micros {

    private static final long PER_SECOND = 1_000_000L;
    private static final long MAX_SECONDS = Long.MAX_VALUE / PER_SECOND - 1;
    private static final long MIN_SECONDS = Long.MIN_VALUE / PER_SECOND + 1;

    private Micros() {}

    /** The instant in microseconds, saturating at the ends of the {@code long} range (±292,000 years). */
    public static long of(Instant t) {
        long seconds = t.getEpochSecond();
        if (seconds > MAX_SECONDS) {
            return Long.MAX_VALUE;
        }
        if (seconds < MIN_SECONDS) {
            return Long.MIN_VALUE;
        }
        return seconds * PER_SECOND + t.getNano() / 1_000;
    }

    /** The instant in microseconds, or null for null. */
    public static Long orNull(Instant t) {
        return t == null ? null : of(t);
    }

    public static Instant toInstant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, PER_SECOND), Math.floorMod(micros, PER_SECOND) * 1_000L);
    }

    /** The stored value as an instant, or null for null. */
    public static Instant toInstant(Long micros) {
        return micros == null ? null : toInstant(micros.longValue());
    }

    /** The instant as it reads back after storing it, or null for null. */
    public static Instant truncate(Instant t) {
        return t == null ? null : toInstant(of(t));
    }

    /** The column as an instant, or null when it is NULL. */
    public static Instant read(ResultSet rs, int column) throws SQLException {
        long micros = rs.getLong(column);
        return rs.wasNull() ? null : toInstant(micros);
    }
}
