package io.worldflow.runtime.internal;

import org.junit.jupiter.api.Test;

import java.time.InstantSource;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class LooksTest {

    @Test
    void aPlannedLookThatWaitsOnTheWorldHoldsUpNoOtherTimer() throws Exception {
        InstantSource clock = InstantSource.system();
        try (ClockScheduler scheduler = new ClockScheduler(clock)) {
            CountDownLatch lookBegan = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger looks = new AtomicInteger();
            Looks slow = new Looks(
                    "test-look",
                    () -> {
                        if (looks.incrementAndGet() == 2) {
                            // the planned look: as slow as a round on a loaded database
                            lookBegan.countDown();
                            try {
                                release.await(5, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        return looks.get() == 1
                                ? clock.instant().plusMillis(20)
                                : clock.instant().plusSeconds(3600);
                    },
                    scheduler);
            try {
                slow.poke(); // the first look plans the second 20 ms on
                assertThat(lookBegan.await(5, TimeUnit.SECONDS)).isTrue();

                CountDownLatch timer = new CountDownLatch(1);
                scheduler.schedule(clock.instant(), timer::countDown);

                assertThat(timer.await(1, TimeUnit.SECONDS))
                        .as("a timer due while the planned look waits fires")
                        .isTrue();
            } finally {
                release.countDown();
                slow.close();
            }
        }
    }
}
