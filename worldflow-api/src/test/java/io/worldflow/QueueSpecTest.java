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
    void aQueueNameMustBeShortPrintableAndNotBlank() {
        assertThatThrownBy(() -> QueueSpec.named(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue name");
        assertThatThrownBy(() -> QueueSpec.named("a\u001fb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control characters");
        assertThatThrownBy(() -> QueueSpec.named("x".repeat(101)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..100");
        assertThatThrownBy(() -> StartOptions.queue("a\nb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue");
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
