package io.worldflow.runtime.internal;

import io.worldflow.runtime.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class WakesTest {

    @Test
    void everyInstantToldOfWakesTheWorkerAtItsTimeEarliestFirst() {
        ManualClock clock = ManualClock.start();
        Instant t0 = clock.instant();
        AtomicInteger woken = new AtomicInteger();
        try (ClockScheduler scheduler = new ClockScheduler(clock)) {
            Wakes wakes = new Wakes(scheduler, woken::incrementAndGet);
            wakes.add(t0.plusSeconds(30));
            wakes.add(t0.plusSeconds(10));
            wakes.add(t0.plusSeconds(20));
            wakes.add(t0.plusSeconds(20));
            assertThat(wakes.size()).isEqualTo(3);

            clock.advance(Duration.ofSeconds(10));
            awaitWoken(woken, 1);
            clock.advance(Duration.ofSeconds(10));
            awaitWoken(woken, 2);
            clock.advance(Duration.ofSeconds(10));
            awaitWoken(woken, 3);
            assertThat(wakes.size()).isZero();

            wakes.add(t0.plusSeconds(60));
            wakes.add(t0.plusSeconds(45));
            clock.advance(Duration.ofSeconds(40));
            awaitWoken(woken, 5);
            assertThat(wakes.size()).isZero();
        }
    }

    private static void awaitWoken(AtomicInteger woken, int atLeast) {
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (woken.get() < atLeast && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(woken.get()).isGreaterThanOrEqualTo(atLeast);
    }
}
