package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkerOptionsTest {

    private static WorldConfig config(String... keyValues) {
        Map<String, String> values = new HashMap<>(WorldflowConfig.DEFAULTS);
        for (int i = 0; i < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return WorldConfig.of(values);
    }

    @Test
    void defaultsMatchTheDocumentedConfiguration() {
        WorkerOptions o = WorkerOptions.defaults();

        assertThat(o.concurrency()).isEqualTo(100);
        assertThat(o.queues()).containsExactly("default");
        assertThat(o.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(o.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.stickyWait()).isEqualTo(Duration.ofMillis(200));
        assertThat(o.holdRetry()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.handleSigterm()).isTrue();
        assertThat(o.workerId()).isNotBlank();
    }

    @Test
    void runsAreKeptForEverUnlessRetentionIsConfigured() {
        RetentionOptions r = WorkerOptions.defaults().retention();

        assertThat(r.enabled()).isFalse();
        assertThat(r.keepFor()).isNull();
        assertThat(r.interval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(r.batch()).isEqualTo(500);
        assertThat(r).isEqualTo(RetentionOptions.keepForever());
    }

    @Test
    void fromConfigReadsTheRetentionKeys() {
        RetentionOptions r = WorkerOptions.fromConfig(config(
                        RetentionOptions.KEEP_FOR, "30d",
                        RetentionOptions.INTERVAL, "5m",
                        RetentionOptions.BATCH, "200"))
                .retention();

        assertThat(r.enabled()).isTrue();
        assertThat(r.keepFor()).isEqualTo(Duration.ofDays(30));
        assertThat(r.interval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(r.batch()).isEqualTo(200);
        assertThat(WorkerOptions.fromConfig(config(RetentionOptions.KEEP_FOR, "P7D"))
                        .retention()
                        .keepFor())
                .isEqualTo(Duration.ofDays(7));
    }

    @Test
    void aRetentionThatIsNotPositiveOrMalformedNamesTheKey() {
        for (String bad : List.of("0s", "0d", "PT0S", "PT-5S", "-3d", "a month")) {
            assertThatThrownBy(() -> WorkerOptions.fromConfig(config(RetentionOptions.KEEP_FOR, bad)))
                    .as(bad)
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining(RetentionOptions.KEEP_FOR + " must be")
                    .hasMessageContaining(bad);
        }
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(RetentionOptions.INTERVAL, "0s")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(RetentionOptions.INTERVAL);
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(RetentionOptions.BATCH, "0")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(RetentionOptions.BATCH)
                .hasMessageContaining("1..10000");
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(RetentionOptions.BATCH, "lots")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(RetentionOptions.BATCH);
    }

    @Test
    void retentionWithersValidateLikeTheConstructor() {
        RetentionOptions r = RetentionOptions.after(Duration.ofDays(30))
                .withInterval(Duration.ofSeconds(30))
                .withBatch(50);

        assertThat(WorkerOptions.defaults().withRetention(r).retention()).isEqualTo(r);
        assertThatThrownBy(() -> r.withKeepFor(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keepFor");
        assertThatThrownBy(() -> r.withBatch(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.withInterval(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.withInterval(Duration.ofMillis(999)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interval must be at least 1s")
                .hasMessageContaining("PT0.999S");
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(RetentionOptions.INTERVAL, "1ms")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(RetentionOptions.INTERVAL);
        assertThatThrownBy(() -> WorkerOptions.defaults().withRetention(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void eachWorkerGetsItsOwnId() {
        assertThat(WorkerOptions.defaults().workerId())
                .isNotEqualTo(WorkerOptions.defaults().workerId());
    }

    @Test
    void fromConfigReadsEveryKey() {
        WorkerOptions o = WorkerOptions.fromConfig(config(
                WorkerOptions.CONCURRENCY, "8",
                WorkerOptions.QUEUES, " billing, default ,,emails ",
                WorkerOptions.LEASE, "2m",
                WorkerOptions.POLL_INTERVAL, "250ms",
                WorkerOptions.SHUTDOWN_GRACE, "0s",
                WorkerOptions.STICKY_WAIT, "PT1S",
                WorkerOptions.HOLD_RETRY, "5m"));

        assertThat(o.concurrency()).isEqualTo(8);
        assertThat(o.queues()).containsExactlyInAnyOrder("billing", "default", "emails");
        assertThat(o.lease()).isEqualTo(Duration.ofMinutes(2));
        assertThat(o.pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(o.shutdownGrace()).isZero();
        assertThat(o.stickyWait()).isEqualTo(Duration.ofSeconds(1));
        assertThat(o.holdRetry()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aConcurrencyThatIsNotANumberNamesTheKey() {
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.CONCURRENCY, "lots")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(WorkerOptions.CONCURRENCY)
                .hasMessageContaining("'lots'");
    }

    @Test
    void anOutOfRangeConcurrencyIsAConfigurationException() {
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.CONCURRENCY, "0")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(WorkerOptions.CONCURRENCY + " must be 1..100000, was 0");
    }

    @Test
    void aGarbageDurationNamesTheKey() {
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.POLL_INTERVAL, "often")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(WorkerOptions.POLL_INTERVAL)
                .hasMessageContaining("'often'");
    }

    @Test
    void aLeaseShorterThan300msIsAConfigurationException() {
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.LEASE, "100ms")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(WorkerOptions.LEASE + " must be at least 300ms, was 100ms");
        assertThat(WorkerOptions.fromConfig(config(WorkerOptions.LEASE, "300ms"))
                        .lease())
                .hasMillis(300);
    }

    @Test
    void zeroPollIntervalOrHoldRetryIsAConfigurationException() {
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.POLL_INTERVAL, "0s")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(WorkerOptions.POLL_INTERVAL + " must be at least 1ms, was 0s");
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.HOLD_RETRY, "0ms")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(WorkerOptions.HOLD_RETRY + " must be at least 1ms, was 0s");
    }

    @Test
    void noQueueIsAConfigurationException() {
        assertThatThrownBy(() -> WorkerOptions.fromConfig(config(WorkerOptions.QUEUES, " , ,")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("queue");
    }

    @Test
    void withersValidateLikeTheConstructor() {
        WorkerOptions o = WorkerOptions.defaults();

        assertThat(o.withConcurrency(4)
                        .withQueues(Set.of("q"))
                        .withWorkerId("w1")
                        .withHandleSigterm(false))
                .satisfies(x -> {
                    assertThat(x.concurrency()).isEqualTo(4);
                    assertThat(x.queues()).containsExactly("q");
                    assertThat(x.workerId()).isEqualTo("w1");
                    assertThat(x.handleSigterm()).isFalse();
                    assertThat(x.lease()).isEqualTo(o.lease());
                });
        assertThatThrownBy(() -> o.withConcurrency(100_001))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100001");
        assertThatThrownBy(() -> o.withQueues(Set.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> o.withQueues(Set.of("bulk mail")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("worker queue 'bulk mail' has a space at index 4");
        assertThatThrownBy(() -> o.withLease(Duration.ofMillis(299))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> o.withPollInterval(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> o.withWorkerId(null)).isInstanceOf(NullPointerException.class);
    }
}
