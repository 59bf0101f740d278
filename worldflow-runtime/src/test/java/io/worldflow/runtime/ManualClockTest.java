package io.worldflow.runtime;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManualClockTest {

    @Test
    void startsAtTheStartOf2030AndMovesOnlyWhenTold() {
        ManualClock clock = ManualClock.start();

        assertThat(clock.instant()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(clock.instant()).isEqualTo(clock.instant());

        clock.advance(Duration.ofMinutes(90));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2030-01-01T01:30:00Z"));

        clock.set(Instant.parse("2030-02-01T00:00:00Z"));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2030-02-01T00:00:00Z"));
    }

    @Test
    void neverMovesBackwards() {
        ManualClock clock = ManualClock.start();

        assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("forward");
        assertThatThrownBy(() -> clock.set(Instant.parse("2029-12-31T23:59:59Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("forward");
        assertThat(clock.instant()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    }

    @Test
    void listenersHearEveryChangeUntilRemoved() {
        ManualClock clock = ManualClock.start();
        AtomicInteger calls = new AtomicInteger();
        Runnable listener = calls::incrementAndGet;
        clock.onChange(listener);

        clock.advance(Duration.ofSeconds(1));
        clock.set(clock.instant().plusSeconds(1));
        clock.advance(Duration.ZERO);
        clock.removeListener(listener);
        clock.advance(Duration.ofSeconds(1));

        assertThat(calls).hasValue(3);
    }

    @Test
    void listenersSeeTheNewTime() {
        ManualClock clock = ManualClock.start();
        Instant[] seen = new Instant[1];
        clock.onChange(() -> seen[0] = clock.instant());

        clock.advance(Duration.ofHours(1));

        assertThat(seen[0]).isEqualTo(Instant.parse("2030-01-01T01:00:00Z"));
    }
}
