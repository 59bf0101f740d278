package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.RetentionOptions;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.NewRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class RetentionTest {

    private static final Duration KEEP = Duration.ofDays(30);
    private static final Duration INTERVAL = Duration.ofMinutes(1);

    private final ManualClock clock = ManualClock.start();
    private final ClockScheduler scheduler = new ClockScheduler(clock);
    private final FinishedRuns log = new FinishedRuns();
    private Retention retention;

    @AfterEach
    void stop() {
        if (retention != null) {
            retention.close();
        }
        scheduler.close();
    }

    /** A purge request as the event log received it. */
    private record Purge(Instant finishedBefore, int limit, int deleted) {}

    /**
     * An event log that knows only when its finished runs finished: a purge deletes those before the cutoff, oldest
     * first, up to the limit, and is recorded. {@link #failing} makes the next purges throw.
     */
    private static final class FinishedRuns implements EventLog {
        final List<Instant> finished = new ArrayList<>();
        final BlockingQueue<Purge> purges = new LinkedBlockingQueue<>();
        volatile int failing;

        @Override
        public synchronized int purgeFinished(Instant finishedBefore, int limit) {
            if (failing > 0) {
                failing--;
                purges.add(new Purge(finishedBefore, limit, -1));
                throw new WorldException("database unreachable", true, null);
            }
            List<Instant> gone = finished.stream()
                    .filter(t -> t.isBefore(finishedBefore))
                    .sorted()
                    .limit(limit)
                    .toList();
            gone.forEach(finished::remove); // one each: many runs finished at the same instant
            purges.add(new Purge(finishedBefore, limit, gone.size()));
            return gone.size();
        }

        synchronized void finishedAt(Instant at, int runs) {
            for (int i = 0; i < runs; i++) {
                finished.add(at);
            }
        }

        synchronized int left() {
            return finished.size();
        }

        @Override
        public CreateResult create(NewRun run) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<AppendResult> append(List<Append> appends) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Event> read(String runId, long fromSeq) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void requestCancel(String runId, String reason, boolean terminate, String actor) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void reopen(WorkflowRetried retried) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void hold(String runId, ErrorInfo reason) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.worldflow.spi.StoredLog storedLog(String runId) {
            throw new UnsupportedOperationException();
        }
    }

    private void start(int batch) {
        retention = new Retention(
                log,
                scheduler,
                RetentionOptions.after(KEEP).withInterval(INTERVAL).withBatch(batch));
        retention.start();
    }

    /** The next purge request, waited for in real time (a pass runs on a thread of its own). */
    private Purge nextPurge() throws InterruptedException {
        Purge p = log.purges.poll(10, TimeUnit.SECONDS);
        assertThat(p).as("a purge request").isNotNull();
        return p;
    }

    /** Waits for the pass in progress to end, then asserts that it asked for nothing more. */
    private void passEnded() {
        assertThat(retention.awaitIdle(Duration.ofSeconds(10)))
                .as("the pass ended")
                .isTrue();
        assertThat(log.purges).as("purge requests after the last one awaited").isEmpty();
    }

    @Test
    void everyIntervalAPassDeletesBatchAfterBatchTheRunsPastTheRetention() throws Exception {
        Instant start = clock.instant();
        log.finishedAt(start.minus(KEEP).minusSeconds(1), 1_200);
        log.finishedAt(start.minus(Duration.ofDays(1)), 7);
        start(500);
        clock.advance(INTERVAL.minusMillis(1));
        passEnded();

        clock.advance(Duration.ofMillis(1));
        Instant cutoff = start.plus(INTERVAL).minus(KEEP);

        assertThat(List.of(nextPurge(), nextPurge(), nextPurge()))
                .containsExactly(new Purge(cutoff, 500, 500), new Purge(cutoff, 500, 500), new Purge(cutoff, 500, 200));
        passEnded();
        assertThat(log.left()).isEqualTo(7);

        // the next pass, one interval later, by the engine's clock; the runs that finished a day ago are not yet due
        clock.advance(INTERVAL);
        assertThat(nextPurge()).isEqualTo(new Purge(cutoff.plus(INTERVAL), 500, 0));
        passEnded();
        clock.advance(KEEP);
        assertThat(nextPurge().deleted()).isEqualTo(7);
        assertThat(log.left()).isZero();
    }

    @Test
    void aFailedPassIsLoggedAndTheNextOneTriesAgain() throws Exception {
        log.finishedAt(clock.instant().minus(KEEP.multipliedBy(2)), 3);
        log.failing = 1;
        start(2);

        clock.advance(INTERVAL);
        assertThat(nextPurge().deleted()).isEqualTo(-1);
        passEnded();
        assertThat(log.left()).isEqualTo(3);

        clock.advance(INTERVAL);
        assertThat(List.of(nextPurge().deleted(), nextPurge().deleted())).containsExactly(2, 1);
        assertThat(log.left()).isZero();
    }

    @Test
    void closingStopsThePasses() throws Exception {
        log.finishedAt(clock.instant().minus(KEEP.multipliedBy(2)), 3);
        start(10);
        clock.advance(INTERVAL);
        assertThat(nextPurge().deleted()).isEqualTo(3);

        retention.close();
        log.finishedAt(clock.instant().minus(KEEP.multipliedBy(2)), 3);
        clock.advance(INTERVAL);

        // the tick is due and runs on the scheduler's thread: given a moment, it starts no pass
        assertThat(log.purges.poll(300, TimeUnit.MILLISECONDS))
                .as("a purge request")
                .isNull();
        assertThat(log.left()).isEqualTo(3);
    }

    @Test
    void durationsAreLoggedAsConfigurationSpellsThem() {
        assertThat(List.of(Duration.ofDays(30), Duration.ofHours(36), Duration.ofMinutes(1), Duration.ofSeconds(90)))
                .extracting(Retention::shown)
                .containsExactly("30d", "36h", "1m", "90s");
        assertThat(Retention.shown(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }

    @Test
    void retentionThatKeepsRunsForEverCannotRun() {
        assertThatThrownBy(() -> new Retention(log, scheduler, RetentionOptions.keepForever()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("for ever");
    }
}
