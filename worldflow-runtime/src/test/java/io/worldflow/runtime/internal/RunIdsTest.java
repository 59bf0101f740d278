package io.worldflow.runtime.internal;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RunIdsTest {

    @Test
    void anIdIs22CharactersSafeInAUrl() {
        String id = RunIds.next(Instant.parse("2026-11-22T10:00:00Z").toEpochMilli());

        assertThat(id).hasSize(RunIds.LENGTH).hasSize(22).matches("[-0-9A-Z_a-z]{22}");
    }

    @Test
    void noIdStartsWithADashSoNoCommandLineTakesItForAnOption() {
        for (long ms : new long[] {0, Instant.parse("2026-11-22T10:00:00Z").toEpochMilli(), (1L << 47) - 1}) {
            assertThat(RunIds.next(ms)).as("at " + ms).matches("[V-Z_a-z].{21}");
        }
        // ids made when the first character was '-' sort before every id made now
        assertThat("-P7_Tht_2BTHTDNTV9DjJH").isLessThan(RunIds.next(0));
    }

    @Test
    void idsSortByTheirMillisecondInByteOrder() {
        long t = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
        List<String> ids = new ArrayList<>();
        for (long ms : new long[] {0, 1, 63, 64, 4095, t - 1, t, t + 1, t + 1000, (1L << 47) - 1}) {
            ids.add(RunIds.next(ms));
        }

        assertThat(ids).isSortedAccordingTo(String::compareTo);
        assertThat(RunIds.next(t).substring(0, 8))
                .isEqualTo(RunIds.next(t).substring(0, 8))
                .isNotEqualTo(RunIds.next(t + 1).substring(0, 8));
    }

    @Test
    void idsOfOneMillisecondDifferInTheirRandomPart() {
        long t = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
        Set<String> ids = new HashSet<>();
        Set<Character> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = RunIds.next(t);
            ids.add(id);
            for (int c = 8; c < id.length(); c++) {
                seen.add(id.charAt(c));
            }
        }

        assertThat(ids).hasSize(100_000);
        assertThat(seen).hasSize(64); // every character of the alphabet turns up: the random part is not stuck
    }
}
