package io.worldflow;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {

    /** A generator whose {@code nextDouble()} is always {@code value}, to pin jitter to one end of its range. */
    private static RandomGenerator fixedRandom(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    private static final RandomGenerator MIDDLE = fixedRandom(0.5);

    private static RetryPolicy policy(
            Backoff backoff, Duration initial, Duration max, double multiplier, double jitter) {
        return new RetryPolicy(10, backoff, initial, max, multiplier, jitter, Set.of());
    }

    static class PermanentFailure extends NonRetryableException {
        PermanentFailure() {
            super("permanent");
        }
    }

    // ---------------------------------------------------------------- validation

    @Test
    void defaultsAreThreeExponentialAttemptsFromOneSecondUpToFiveMinutes() {
        RetryPolicy p = RetryPolicy.defaults();

        assertThat(p.maxAttempts()).isEqualTo(3);
        assertThat(p.backoff()).isEqualTo(Backoff.EXPONENTIAL);
        assertThat(p.initialDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.maxDelay()).isEqualTo(Duration.ofMinutes(5));
        assertThat(p.multiplier()).isEqualTo(2.0);
        assertThat(p.jitter()).isEqualTo(0.1);
        assertThat(p.nonRetryable()).isEmpty();
    }

    @Test
    void maxAttemptsBelowOneIsRejectedNamingTheValue() {
        assertThatThrownBy(() -> RetryPolicy.defaults().withMaxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxAttempts")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> RetryPolicy.defaults().withMaxAttempts(-3)).hasMessageContaining("-3");
    }

    @Test
    void negativeDelaysAreRejectedNamingTheValue() {
        assertThatThrownBy(() -> RetryPolicy.defaults()
                        .withBackoff(Backoff.CONSTANT, Duration.ofSeconds(-2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative")
                .hasMessageContaining("PT-2S");
        assertThatThrownBy(() ->
                        RetryPolicy.defaults().withBackoff(Backoff.CONSTANT, Duration.ZERO, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-0.005S");
    }

    @Test
    void maxDelayBelowInitialDelayIsRejectedNamingBoth() {
        assertThatThrownBy(() -> RetryPolicy.defaults()
                        .withBackoff(Backoff.EXPONENTIAL, Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT5S")
                .hasMessageContaining("PT10S");
    }

    @Test
    void multiplierBelowOneOrNaNIsRejectedNamingTheValue() {
        assertThatThrownBy(() -> RetryPolicy.defaults().withMultiplier(0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiplier")
                .hasMessageContaining("0.5");
        assertThatThrownBy(() -> RetryPolicy.defaults().withMultiplier(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN");
    }

    @Test
    void jitterOutsideZeroToOneIsRejectedNamingTheValue() {
        assertThatThrownBy(() -> RetryPolicy.defaults().withJitter(1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jitter")
                .hasMessageContaining("1.5");
        assertThatThrownBy(() -> RetryPolicy.defaults().withJitter(-0.1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-0.1");
        assertThatThrownBy(() -> RetryPolicy.defaults().withJitter(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN");
    }

    @Test
    void missingBackoffOrDelaysAreRejected() {
        assertThatThrownBy(() -> new RetryPolicy(3, null, Duration.ZERO, Duration.ZERO, 1, 0, Set.of()))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("backoff");
        assertThatThrownBy(() -> new RetryPolicy(3, Backoff.CONSTANT, null, Duration.ZERO, 1, 0, Set.of()))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("initialDelay");
    }

    @Test
    void nonRetryableTypesAreCopiedAndNullMeansNone() {
        Set<Class<? extends Throwable>> types = new HashSet<>(Set.of(IllegalStateException.class));
        RetryPolicy p = new RetryPolicy(3, Backoff.CONSTANT, Duration.ZERO, Duration.ZERO, 1, 0, types);
        types.add(IOException.class);

        assertThat(p.nonRetryable()).containsExactly(IllegalStateException.class);
        assertThatThrownBy(() -> p.nonRetryable().add(IOException.class))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(new RetryPolicy(3, Backoff.CONSTANT, Duration.ZERO, Duration.ZERO, 1, 0, null).nonRetryable())
                .isEmpty();
    }

    @Test
    void withersChangeOnlyTheirOwnComponent() {
        RetryPolicy p = RetryPolicy.defaults()
                .withMaxAttempts(7)
                .withJitter(0.0)
                .withMultiplier(3.0)
                .withNonRetryable(IllegalArgumentException.class);

        assertThat(p)
                .isEqualTo(new RetryPolicy(
                        7,
                        Backoff.EXPONENTIAL,
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(5),
                        3.0,
                        0.0,
                        Set.of(IllegalArgumentException.class)));
    }

    // ---------------------------------------------------------------- delays

    @Test
    void constantBackoffWaitsTheInitialDelayEveryTime() {
        RetryPolicy p = RetryPolicy.fixed(5, Duration.ofSeconds(2));

        for (int attempt = 1; attempt <= 4; attempt++) {
            assertThat(p.delayAfter(attempt, MIDDLE)).isEqualTo(Duration.ofSeconds(2));
        }
        assertThat(p.jitter()).isZero();
    }

    @Test
    void linearBackoffGrowsByTheInitialDelayPerAttempt() {
        RetryPolicy p = policy(Backoff.LINEAR, Duration.ofMillis(500), Duration.ofHours(1), 2.0, 0);

        assertThat(p.delayAfter(1, MIDDLE)).isEqualTo(Duration.ofMillis(500));
        assertThat(p.delayAfter(2, MIDDLE)).isEqualTo(Duration.ofMillis(1000));
        assertThat(p.delayAfter(3, MIDDLE)).isEqualTo(Duration.ofMillis(1500));
        assertThat(p.delayAfter(8, MIDDLE)).isEqualTo(Duration.ofMillis(4000));
    }

    @Test
    void exponentialBackoffMultipliesTheDelayPerAttempt() {
        RetryPolicy doubling = policy(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofHours(1), 2.0, 0);
        RetryPolicy tripling = policy(Backoff.EXPONENTIAL, Duration.ofMillis(100), Duration.ofHours(1), 3.0, 0);

        assertThat(doubling.delayAfter(1, MIDDLE)).isEqualTo(Duration.ofSeconds(1));
        assertThat(doubling.delayAfter(2, MIDDLE)).isEqualTo(Duration.ofSeconds(2));
        assertThat(doubling.delayAfter(3, MIDDLE)).isEqualTo(Duration.ofSeconds(4));
        assertThat(doubling.delayAfter(6, MIDDLE)).isEqualTo(Duration.ofSeconds(32));
        assertThat(tripling.delayAfter(3, MIDDLE)).isEqualTo(Duration.ofMillis(900));
    }

    @Test
    void retryDelaysGrowExponentiallyUpToTheCap() {
        RetryPolicy p = policy(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(10), 2.0, 0);

        assertThat(p.delayAfter(4, MIDDLE)).isEqualTo(Duration.ofSeconds(8));
        assertThat(p.delayAfter(5, MIDDLE)).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.delayAfter(60, MIDDLE)).isEqualTo(Duration.ofSeconds(10));
        // 2^5000 overflows a double to infinity: still the cap, not an overflow
        assertThat(p.delayAfter(5000, MIDDLE)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void linearBackoffIsCappedToo() {
        RetryPolicy p = policy(Backoff.LINEAR, Duration.ofSeconds(1), Duration.ofSeconds(3), 1.0, 0);

        assertThat(p.delayAfter(2, MIDDLE)).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.delayAfter(9, MIDDLE)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void jitterSpreadsTheDelayByItsFractionEitherWay() {
        RetryPolicy p = policy(Backoff.CONSTANT, Duration.ofSeconds(4), Duration.ofSeconds(4), 1.0, 0.25);
        RetryPolicy wide = policy(Backoff.LINEAR, Duration.ofSeconds(4), Duration.ofMinutes(1), 1.0, 0.25);

        assertThat(p.delayAfter(1, fixedRandom(0.0))).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.delayAfter(1, fixedRandom(0.5))).isEqualTo(Duration.ofSeconds(4));
        // the upper end is never above maxDelay
        assertThat(p.delayAfter(1, fixedRandom(0.999999))).isEqualTo(Duration.ofSeconds(4));
        // below the cap the spread reaches above the base delay
        assertThat(wide.delayAfter(2, fixedRandom(0.0))).isEqualTo(Duration.ofSeconds(6));
        assertThat(wide.delayAfter(2, fixedRandom(0.75))).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void jitteredDelaysStayWithinTheirBoundsAndActuallyVary() {
        RetryPolicy p = policy(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(5), 2.0, 0.2);
        SplittableRandom random = new SplittableRandom(42);
        Set<Duration> seen = new HashSet<>();

        for (int i = 0; i < 500; i++) {
            Duration d = p.delayAfter(3, random);
            assertThat(d).isBetween(Duration.ofMillis(3200), Duration.ofMillis(4800));
            seen.add(d);
        }
        assertThat(seen).hasSizeGreaterThan(50);
    }

    @Test
    void fullJitterNeverGoesNegativeOrAboveTheCap() {
        RetryPolicy p = policy(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(5), 2.0, 1.0);
        SplittableRandom random = new SplittableRandom(7);

        for (int attempt = 1; attempt <= 10; attempt++) {
            for (int i = 0; i < 50; i++) {
                assertThat(p.delayAfter(attempt, random)).isBetween(Duration.ZERO, Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void zeroDelaysGiveImmediateRetries() {
        RetryPolicy p = RetryPolicy.fixed(3, Duration.ZERO);

        assertThat(p.delayAfter(1, MIDDLE)).isZero();
        assertThat(p.delayAfter(2, MIDDLE)).isZero();
    }

    // ---------------------------------------------------------------- shouldRetry

    @Test
    void retriesUntilMaxAttemptsIsReached() {
        RetryPolicy p = RetryPolicy.defaults().withMaxAttempts(3);
        RuntimeException boom = new IllegalStateException("boom");

        assertThat(p.shouldRetry(boom, 1)).isTrue();
        assertThat(p.shouldRetry(boom, 2)).isTrue();
        assertThat(p.shouldRetry(boom, 3)).isFalse();
        assertThat(p.shouldRetry(boom, 4)).isFalse();
    }

    @Test
    void noneMeansASingleAttempt() {
        RetryPolicy p = RetryPolicy.none();

        assertThat(p.maxAttempts()).isEqualTo(1);
        assertThat(p.shouldRetry(new RuntimeException(), 1)).isFalse();
    }

    @Test
    void nonRetryableExceptionAndItsSubclassesAreNeverRetried() {
        RetryPolicy p = RetryPolicy.defaults().withMaxAttempts(10);

        assertThat(p.shouldRetry(new NonRetryableException("card declined"), 1)).isFalse();
        assertThat(p.shouldRetry(new PermanentFailure(), 1)).isFalse();
        assertThat(p.shouldRetry(new WorldflowException("transient"), 1)).isTrue();
    }

    @Test
    void nonRetryableTypesMatchThemselvesAndTheirSubclasses() {
        RetryPolicy p = RetryPolicy.defaults()
                .withMaxAttempts(10)
                .withNonRetryable(IllegalArgumentException.class, IOException.class);

        assertThat(p.shouldRetry(new IllegalArgumentException("bad"), 1)).isFalse();
        assertThat(p.shouldRetry(new NumberFormatException("bad number"), 1)).isFalse();
        assertThat(p.shouldRetry(new java.io.FileNotFoundException("gone"), 1)).isFalse();
        assertThat(p.shouldRetry(new IllegalStateException("other"), 1)).isTrue();
        // a wrapper is judged by its own type, not by its cause
        assertThat(p.shouldRetry(new UncheckedIOException(new IOException("io")), 1))
                .isTrue();
    }

    @Test
    void errorsAreRetriedUnlessListed() {
        RetryPolicy p = RetryPolicy.defaults();
        RetryPolicy noAsserts = p.withNonRetryable(AssertionError.class);

        assertThat(p.shouldRetry(new AssertionError("x"), 1)).isTrue();
        assertThat(noAsserts.shouldRetry(new AssertionError("x"), 1)).isFalse();
    }
}
