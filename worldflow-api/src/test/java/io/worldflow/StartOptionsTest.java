package io.worldflow;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartOptionsTest {

    @Test
    void defaultsHaveNoIdNoDelayAndTheDefaultQueue() {
        StartOptions o = StartOptions.defaults();

        assertThat(o.id()).isNull();
        assertThat(o.delay()).isNull();
        assertThat(o.availableAt()).isNull();
        assertThat(o.deadline()).isNull();
        assertThat(o.timeout()).isNull();
        assertThat(o.priority()).isZero();
        assertThat(o.queue()).isEqualTo(StartOptions.DEFAULT_QUEUE).isEqualTo("default");
    }

    @Test
    void idFactorySetsTheIdAndRejectsNull() {
        assertThat(StartOptions.id("order-42").id()).isEqualTo("order-42");
        assertThatThrownBy(() -> StartOptions.id(null)).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t \t"})
    void blankIdsAreRejected(String id) {
        assertThatThrownBy(() -> StartOptions.id(id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run id")
                .hasMessageContaining("non-blank");
    }

    @Test
    void idsUpToTheMaximumLengthAreAcceptedAndLongerOnesRejected() {
        String longest = "x".repeat(StartOptions.MAX_ID_LENGTH);

        assertThat(StartOptions.id(longest).id()).hasSize(200);
        assertThatThrownBy(() -> StartOptions.id(longest + "y"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..200");
    }

    @ParameterizedTest
    @ValueSource(strings = {"order\n42", "order\u000042", "order\u007f", "order\u009b42", "\rorder"})
    void idsWithControlCharactersAreRejected(String id) {
        assertThatThrownBy(() -> StartOptions.id(id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control characters");
    }

    @Test
    void idsMayHoldPunctuationAndNonAsciiLetters() {
        assertThat(StartOptions.id("tenant/42:order#7 été").id()).isEqualTo("tenant/42:order#7 été");
    }

    @Test
    void negativeDelayIsRejectedNamingIt() {
        assertThatThrownBy(() -> StartOptions.defaults().withDelay(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay")
                .hasMessageContaining("PT-1S");
    }

    @Test
    void zeroDelayIsAllowed() {
        assertThat(StartOptions.defaults().withDelay(Duration.ZERO).delay()).isZero();
    }

    @Test
    void zeroOrNegativeTimeoutIsRejectedNamingIt() {
        assertThatThrownBy(() -> StartOptions.defaults().withTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout")
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> StartOptions.defaults().withTimeout(Duration.ofMinutes(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-1M");
    }

    @Test
    void blankQueueIsRejectedAndNullMeansTheDefault() {
        assertThatThrownBy(() -> StartOptions.defaults().withQueue("  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue");
        assertThat(StartOptions.defaults().withQueue("billing").withQueue(null).queue())
                .isEqualTo("default");
    }

    @Test
    void withersKeepEveryOtherOption() {
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        StartOptions o = StartOptions.id("r1")
                .withDelay(Duration.ofSeconds(5))
                .withAvailableAt(at)
                .withDeadline(at.plusSeconds(60))
                .withTimeout(Duration.ofMinutes(2))
                .withPriority(9)
                .withQueue("billing");

        assertThat(o)
                .isEqualTo(new StartOptions(
                        "r1", Duration.ofSeconds(5), at, at.plusSeconds(60), Duration.ofMinutes(2), 9, "billing"));
        assertThat(o.withId("r2"))
                .isEqualTo(new StartOptions(
                        "r2", Duration.ofSeconds(5), at, at.plusSeconds(60), Duration.ofMinutes(2), 9, "billing"));
    }
}
