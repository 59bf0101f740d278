package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.examples.LedgerPostings.Posting;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class LedgerPostingsTest {

    @TempDir
    Path tmp;

    /** A bank that notes the order of each customer's postings, how many calls overlap, and when each began. */
    static final class WatchingBank implements LedgerPostings.Bank {
        final Map<String, List<Long>> applied = new ConcurrentHashMap<>();
        final List<Long> startedAt = new CopyOnWriteArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();

        @Override
        public long post(String customer, long cents) {
            startedAt.add(System.nanoTime());
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            applied.computeIfAbsent(customer, c -> new CopyOnWriteArrayList<>()).add(cents);
            inFlight.decrementAndGet();
            return cents;
        }
    }

    @Test
    void postingsKeepEachCustomersOrderAndTheQueuesLimits() throws InterruptedException {
        WatchingBank bank = new WatchingBank();
        Workflow<Posting, Long> post = LedgerPostings.workflow(bank);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", tmp + "/ledger.db")
                .property("worldflow.worker.queues", "default,ledger")
                .register(post)
                .queue(LedgerPostings.ledgerQueue())
                .build()) {
            wf.startWorker();
            List<RunHandle<Long>> runs = new ArrayList<>();
            Map<String, List<Long>> submitted = new ConcurrentHashMap<>();
            for (int i = 1; i <= 30; i++) {
                String customer = "customer-" + (i % 3);
                submitted.computeIfAbsent(customer, c -> new ArrayList<>()).add((long) i);
                runs.add(wf.start(post, new Posting(customer, i), LedgerPostings.postingFor(customer)));
            }
            for (RunHandle<Long> run : runs) {
                run.result(Duration.ofSeconds(30));
            }

            assertThat(bank.applied).isEqualTo(submitted);
            assertThat(bank.mostInFlight.get()).isBetween(1, 4);
            // 20 a second: admitted one every 50 ms (a round late by up to 25 ms catches up); each posting then begins
            // a few milliseconds after its admission (the very first, in a JVM that has run nothing yet, later), so
            // 21 of them take nearly a second, not the moment they would take unthrottled
            List<Long> starts = bank.startedAt.stream().sorted().toList();
            assertThat(starts.getLast() - starts.getFirst())
                    .isGreaterThan(Duration.ofMillis(1_300).toNanos());
            for (int i = 1; i + 20 < starts.size(); i++) {
                assertThat(starts.get(i + 20) - starts.get(i))
                        .as("21 starts from the %dth", i)
                        .isGreaterThan(Duration.ofMillis(900).toNanos());
            }
            // a run's place is given back by the worker's next admission round, just after the run's end
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (wf.queues().describe("ledger").orElseThrow().running() > 0 && System.nanoTime() < end) {
                Thread.sleep(10);
            }
            assertThat(wf.queues().describe("ledger").orElseThrow().running()).isZero();
        }
    }
}
