package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.StepTimeoutException;
import io.worldflow.Workflow;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepRetrying;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class RateImportTest {

    @TempDir
    Path tmp;

    @Test
    void anAttemptThatHangsOnAPageIsGivenUpAtItsHeartbeatTimeoutAndTriedAgain() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch never = new CountDownLatch(1);
        RateImport.Feed feed = new RateImport.Feed() {
            @Override
            public int pages() {
                return 3;
            }

            @Override
            public List<String> page(int n) throws InterruptedException {
                if (n == 1 && calls.incrementAndGet() == 1) {
                    never.await(); // the first attempt hangs on page 1 until it is interrupted
                }
                return List.of("EUR/USD", "EUR/GBP");
            }
        };
        Workflow<String, Integer> rates = RateImport.workflow(feed, Duration.ofSeconds(20), Duration.ofMillis(300));
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", tmp + "/rates.db")
                .register(rates)
                .build()) {
            wf.startWorker();
            RunHandle<Integer> run = wf.start(rates, "2026-11-26");

            assertThat(run.result(Duration.ofSeconds(20))).isEqualTo(6);
            assertThat(wf.events(run.id()))
                    .filteredOn(StepRetrying.class::isInstance)
                    .singleElement()
                    .satisfies(e -> assertThat(((StepRetrying) e).error().type())
                            .isEqualTo(StepTimeoutException.class.getName()))
                    .satisfies(e -> assertThat(((StepRetrying) e).error().message())
                            .contains("sent no heartbeat for PT0.3S")
                            .contains("page 0 of 2026-11-26"));
            assertThat(wf.events(run.id()))
                    .filteredOn(StepCompleted.class::isInstance)
                    .hasSize(1);
        }
    }
}
