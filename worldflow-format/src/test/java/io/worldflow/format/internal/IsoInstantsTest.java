package io.worldflow.format.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class IsoInstantsTest {

    @Test
    void writesExactlyWhatInstantToStringWritesAndReadsItBack() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(-62_167_219_200L, 253_402_300_800L); // 0000-01-01 .. 9999-12-31
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(seconds, nano);

            String text = IsoInstants.format(instant);

            assertThat(text).isEqualTo(instant.toString());
            assertThat(IsoInstants.tryParse(text)).isEqualTo(instant);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "1970-01-01T00:00:00Z",
                "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999Z",
                "2024-02-29T12:00:00.5Z",
                "2026-11-22T04:58:40.409133836Z",
                "1969-12-31T23:59:59.000001Z"
            })
    void edgesRoundTrip(String text) {
        Instant instant = Instant.parse(text);

        assertThat(IsoInstants.tryParse(text)).isEqualTo(instant);
        assertThat(IsoInstants.format(instant)).isEqualTo(instant.toString());
    }

    @Test
    void instantsOutsideFourDigitYearsAreWrittenByTheGeneralFormatter() {
        for (Instant instant : new Instant[] {
            Instant.MIN, Instant.MAX, Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59Z")
        }) {
            assertThat(IsoInstants.format(instant)).isEqualTo(instant.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "2026-11-22",
                "2026-11-22T04:58:40",
                "2026-11-22T04:58:40+01:00",
                "2026-11-22t04:58:40z",
                "2026-11-22T23:59:60Z",
                "2026-13-01T00:00:00Z",
                "2026-00-01T00:00:00Z",
                "2025-02-29T00:00:00Z",
                "2026-04-31T00:00:00Z",
                "2026-11-22T24:00:00Z",
                "2026-11-22T04:60:00Z",
                "2026-11-22T04:58:40.Z",
                "2026-11-22T04:58:40.1234567890Z",
                "2026-11-22T04:58:40,5Z",
                "2026-1a-22T04:58:40Z",
                "+10000-01-01T00:00:00Z",
                "2026-11-22T04:58:40.12x4Z"
            })
    void anythingElseIsLeftToTheGeneralParser(String text) {
        assertThat(IsoInstants.tryParse(text)).isNull();
    }
}
