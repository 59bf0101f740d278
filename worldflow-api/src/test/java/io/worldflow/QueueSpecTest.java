package io.worldflow;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueSpecTest {

    @Test
    void aNamedQueueHasNoLimitsButKeepsKeysOneAtATime() {
        QueueSpec q = QueueSpec.named("payments");

        assertThat(q.concurrency()).isZero();
        assertThat(q.keyConcurrency()).isEqualTo(1);
        assertThat(q.rateLimit()).isNull();
        assertThat(q.limitsEveryRun()).isFalse();
        assertThat(q.withConcurrency(3).limitsEveryRun()).isTrue();
        assertThat(q.withRateLimit(5, Duration.ofSeconds(1)).limitsEveryRun()).isTrue();
        assertThat(q.withRateLimit(5, Duration.ofSeconds(1)).withoutRateLimit()).isEqualTo(q);
    }

    @Test
    void aNegativeOrTooLargeLimitIsRefusedNamingTheField() {
        QueueSpec q = QueueSpec.named("payments");

        assertThatThrownBy(() -> q.withConcurrency(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> q.withConcurrency(QueueSpec.MAX_CONCURRENCY + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency");
        assertThatThrownBy(() -> q.withWorkerConcurrency(-2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workerConcurrency")
                .hasMessageContaining("-2");
        assertThatThrownBy(() -> q.withKeyConcurrency(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyConcurrency");
    }

    @Test
    void aRateLimitNeedsAStartAndAPeriodOfAtLeastAMillisecond() {
        QueueSpec q = QueueSpec.named("payments");

        assertThatThrownBy(() -> q.withRateLimit(0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("starts");
        assertThatThrownBy(() -> q.withRateLimit(10, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period");
        assertThatThrownBy(() -> q.withRateLimit(10, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period");
        assertThat(new RateLimit(200, Duration.ofSeconds(1)).interval()).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void aQueueNameMustBeShortAndHoldOnlyLettersDigitsAndAFewMarks() {
        assertThat(QueueSpec.named("eu-west_1.payments:v2").name()).isEqualTo("eu-west_1.payments:v2");
        assertThatThrownBy(() -> QueueSpec.named(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue name must be 1..100 characters, was 0");
        assertThatThrownBy(() -> QueueSpec.named(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a space at index 0");
        assertThatThrownBy(() -> QueueSpec.named("bad name"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queue name 'bad name' has a space at index 3; a queue name holds ASCII letters, digits"
                        + " and - _ . : only");
        assertThatThrownBy(() -> QueueSpec.named("bad!"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has '!' at index 3");
        assertThatThrownBy(() -> QueueSpec.named("a/b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has '/' at index 1");
        assertThatThrownBy(() -> QueueSpec.named("a,b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has ',' at index 1");
        assertThatThrownBy(() -> QueueSpec.named("a\u001fb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a\\u001fb' has the character U+001F at index 1");
        assertThatThrownBy(() -> QueueSpec.named("x".repeat(101)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..100");
        assertThatThrownBy(() -> StartOptions.queue("a\nb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue 'a\\u000ab' has the character U+000A at index 1");
        assertThatThrownBy(() -> ChildOptions.defaults().withQueue("my queue"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue 'my queue' has a space at index 2");
    }

    @Test
    void aRateLimitFasterThanAStartAMicrosecondIsRefused() {
        QueueSpec q = QueueSpec.named("payments");

        assertThat(q.withRateLimit(1_000_000, Duration.ofSeconds(1)).rateLimit().interval())
                .isEqualTo(Duration.ofNanos(1_000));
        assertThatThrownBy(() -> q.withRateLimit(1_000_000, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a rate limit of 1000000 starts per PT0.001S would start one every 1ns; the interval"
                        + " between starts must be at least 1µs (1,000,000 starts per second)");
        assertThatThrownBy(() -> q.withRateLimit(2_000_000, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("every 0ns");
    }

    @Test
    void aKeyMustBeShortAndPrintable() {
        assertThat(StartOptions.queue("q").withKey("customer-7").key()).isEqualTo("customer-7");
        assertThatThrownBy(() -> StartOptions.queue("q").withKey(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> StartOptions.queue("q").withKey("a\tb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
    }
}
