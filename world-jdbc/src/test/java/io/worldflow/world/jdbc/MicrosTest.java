package io.worldflow.world.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class MicrosTest {

    @Test
    void anInstantRoundTripsToTheMicrosecondAndDropsFinerDigits() {
        Instant t = Instant.parse("2026-03-01T12:34:56.123456789Z");

        assertThat(Micros.of(t)).isEqualTo(1_772_368_496_123_456L);
        assertThat(Micros.toInstant(Micros.of(t))).isEqualTo(Instant.parse("2026-03-01T12:34:56.123456Z"));
        assertThat(Micros.truncate(t)).isEqualTo(Instant.parse("2026-03-01T12:34:56.123456Z"));
    }

    @Test
    void instantsBeforeTheEpochRoundTripWithFloorDivision() {
        Instant t = Instant.parse("1969-12-31T23:59:59.999999Z");

        assertThat(Micros.of(t)).isEqualTo(-1L);
        assertThat(Micros.toInstant(-1L)).isEqualTo(t);
        assertThat(Micros.toInstant(-1_000_001L)).isEqualTo(Instant.parse("1969-12-31T23:59:58.999999Z"));
    }

    @Test
    void instantsBeyondTheLongRangeSaturate() {
        assertThat(Micros.of(Instant.MAX)).isEqualTo(Long.MAX_VALUE);
        assertThat(Micros.of(Instant.MIN)).isEqualTo(Long.MIN_VALUE);
        assertThat(Micros.toInstant(Long.MAX_VALUE))
                .isBefore(Instant.MAX)
                .isAfter(Instant.parse("+290000-01-01T00:00:00Z"));
        assertThat(Micros.toInstant(Long.MIN_VALUE))
                .isAfter(Instant.MIN)
                .isBefore(Instant.parse("-290000-01-01T00:00:00Z"));
        assertThat(Micros.of(Micros.toInstant(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(Micros.of(Micros.toInstant(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void nullStaysNull() {
        assertThat(Micros.orNull(null)).isNull();
        assertThat(Micros.toInstant((Long) null)).isNull();
        assertThat(Micros.truncate(null)).isNull();
        assertThat(Micros.orNull(Instant.ofEpochSecond(2))).isEqualTo(2_000_000L);
        assertThat(Micros.toInstant(Long.valueOf(2_000_000L))).isEqualTo(Instant.ofEpochSecond(2));
    }

    @Test
    void storedAndReadRoundTripThroughAColumnIncludingNull() throws SQLException {
        Instant t = Instant.parse("2026-03-01T12:34:56.123456Z");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE times (id INTEGER PRIMARY KEY, at INTEGER)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO times (id, at) VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, Micros.orNull(t));
                ps.executeUpdate();
                ps.setInt(1, 2);
                ps.setObject(2, Micros.orNull(null));
                ps.executeUpdate();
            }
            try (ResultSet rs = st.executeQuery("SELECT at, at IS NULL FROM times ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(Micros.read(rs, 1)).isEqualTo(t);
                assertThat(rs.getBoolean(2)).isFalse();
                assertThat(rs.next()).isTrue();
                assertThat(Micros.read(rs, 1)).isNull();
                assertThat(rs.getBoolean(2)).isTrue();
            }
        }
    }
}
