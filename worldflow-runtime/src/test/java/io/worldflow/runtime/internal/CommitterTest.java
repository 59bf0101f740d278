package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.runtime.internal.telemetry.Telemetry;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TurnEnd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommitterTest {

    /** An event log that records each batch it is given and answers with {@code answer}. */
    private static final class RecordingLog implements EventLog {
        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final List<Append> appended = new CopyOnWriteArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        volatile int mostInFlight;
        final boolean inProcess;
        volatile Function<List<Append>, List<AppendResult>> answer = appends -> appends.stream()
                .map(a -> new AppendResult(true, a.nextSeq(), false))
                .toList();
        volatile CountDownLatch entered = new CountDownLatch(0);
        volatile CountDownLatch release = new CountDownLatch(0);

        RecordingLog(boolean inProcess) {
            this.inProcess = inProcess;
        }

        @Override
        public List<AppendResult> append(List<Append> appends) {
            mostInFlight = Math.max(mostInFlight, inFlight.incrementAndGet());
            try {
                return record(appends);
            } finally {
                inFlight.decrementAndGet();
            }
        }

        private List<AppendResult> record(List<Append> appends) {
            threads.add(Thread.currentThread().getName());
            appended.addAll(appends);
            batches.add(appends.stream().map(Append::runId).toList());
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answer.apply(appends);
        }

        @Override
        public CreateResult create(NewRun run) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Event> read(String runId, long fromSeq) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void reopen(io.worldflow.event.WorkflowRetried retried) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void requestCancel(String runId, String reason, boolean terminate, String actor) {
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

        @Override
        public int purgeFinished(Instant finishedBefore, int limit) {
            throw new UnsupportedOperationException();
        }
    }

    private final RecordingLog log = new RecordingLog(false);
    private final Committer committer = new Committer(log, log.inProcess, Telemetry.OFF);

    @AfterEach
    void close() {
        log.release.countDown();
        committer.close();
    }

    private static Append statusOnly(String runId, long seq) {
        return new Append(runId, seq, List.of(), RunStatus.RUNNING);
    }

    private static AppendResult await(CompletableFuture<AppendResult> f) throws Exception {
        return f.get(5, TimeUnit.SECONDS);
    }

    @Test
    void eachAppendGetsItsOwnResult() throws Exception {
        AppendResult result = await(committer.submit(statusOnly("r1", 4)));

        assertThat(result).isEqualTo(new AppendResult(true, 4, false));
        assertThat(log.batches).containsExactly(List.of("r1"));
    }

    @Test
    void appendsQueuedDuringACommitShareTheNextOneInOrder() throws Exception {
        log.entered = new CountDownLatch(1);
        log.release = new CountDownLatch(1);
        CompletableFuture<AppendResult> first = committer.submit(statusOnly("r0", 0));
        assertThat(log.entered.await(5, TimeUnit.SECONDS)).isTrue();

        List<CompletableFuture<AppendResult>> queued = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            queued.add(committer.submit(statusOnly("r" + i, i)));
        }
        log.release.countDown();

        assertThat(await(first).logLength()).isZero();
        for (int i = 0; i < queued.size(); i++) {
            assertThat(await(queued.get(i)).logLength()).isEqualTo(i + 1);
        }
        assertThat(log.batches).containsExactly(List.of("r0"), List.of("r1", "r2", "r3", "r4", "r5"));
        assertThat(committer.counts()).containsExactly(2L, 6L);
    }

    /** Appends whose events are steps at {@code seq}, {@code seq+1}, …; with a turn end when {@code ends}. */
    private static Append steps(String runId, long seq, int n, boolean ends) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(new StepCompleted(runId, seq + i, Instant.EPOCH, "s" + (seq + i), 1, Payload.NULL));
        }
        TurnEnd end = ends ? new TurnEnd(new Lease(runId, "t", "q", Instant.EPOCH, 1), null) : null;
        return new Append(runId, seq, events, RunStatus.RUNNING, List.of(), end);
    }

    /** The appends of one batch, queued behind a commit in flight, once all are written or refused. */
    private List<CompletableFuture<AppendResult>> queuedTogether(Append... appends) throws Exception {
        log.entered = new CountDownLatch(1);
        log.release = new CountDownLatch(1);
        CompletableFuture<AppendResult> blocker = committer.submit(statusOnly("r0", 0));
        assertThat(log.entered.await(5, TimeUnit.SECONDS)).isTrue();
        List<CompletableFuture<AppendResult>> queued = new ArrayList<>();
        for (Append a : appends) {
            queued.add(committer.submit(a));
        }
        log.release.countDown();
        await(blocker);
        CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new))
                .exceptionally(failure -> null)
                .get(5, TimeUnit.SECONDS);
        return queued;
    }

    @Test
    void aRunsPipelinedAppendsInOneBatchGoToTheWorldAsOneEachReportingItsOwnLength() throws Exception {
        List<CompletableFuture<AppendResult>> queued = queuedTogether(
                steps("a", 3, 1, false),
                steps("b", 0, 2, false),
                steps("a", 4, 2, false),
                steps("a", 6, 1, true),
                steps("a", 7, 1, false));

        assertThat(queued.stream().map(f -> f.join().logLength()).toList()).containsExactly(4L, 2L, 6L, 7L, 8L);
        assertThat(log.batches.get(1))
                .as("a's first three joined where its first was; the one after a turn's end stays apart")
                .containsExactly("a", "b", "a");
        Append joined = log.appended.get(1);
        assertThat(joined.expectedSeq()).isEqualTo(3);
        assertThat(joined.events()).extracting(Event::seq).containsExactly(3L, 4L, 5L, 6L);
        assertThat(joined.turnEnd()).isNotNull();
        assertThat(log.appended.get(3).expectedSeq()).isEqualTo(7);
        assertThat(committer.counts()).containsExactly(2L, 6L);
    }

    @Test
    void aHundredAppendsOfOneRunEachStartingAChildGoAsOneThatStartsThemAllInOrder() throws Exception {
        List<Append> appends = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            appends.add(
                    steps("p", 1 + i, 1, false).withEffects(List.of(child("p/kid/" + i)), List.of(), List.of(), null));
        }
        // a second start of an id already started in the batch is a write of its own
        appends.add(steps("p", 101, 1, false).withEffects(List.of(child("p/kid/7")), List.of(), List.of(), null));
        List<CompletableFuture<AppendResult>> queued = queuedTogether(appends.toArray(Append[]::new));

        assertThat(queued.stream().map(f -> f.join().logLength()).toList())
                .isEqualTo(LongStream.rangeClosed(2, 102).boxed().toList());
        assertThat(log.batches.get(1)).containsExactly("p", "p");
        Append joined = log.appended.get(1);
        assertThat(joined.expectedSeq()).isEqualTo(1);
        assertThat(joined.events()).hasSize(100);
        assertThat(joined.starts())
                .extracting(NewRun::runId)
                .isEqualTo(IntStream.range(0, 100).mapToObj(i -> "p/kid/" + i).toList());
        assertThat(log.appended.get(2).expectedSeq()).isEqualTo(101);
        assertThat(log.appended.get(2).starts()).extracting(NewRun::runId).containsExactly("p/kid/7");
    }

    private static NewRun child(String id) {
        return new NewRun(id, "kid", Payload.NULL, Instant.EPOCH, Instant.EPOCH, null, "q", 0, "p");
    }

    @Test
    void appendsThatDoNotFollowOneAnotherAreNotJoined() throws Exception {
        queuedTogether(steps("a", 3, 1, false), steps("a", 9, 1, false));

        assertThat(log.batches.get(1)).containsExactly("a", "a");
    }

    @Test
    void aRefusedJoinedAppendFailsEveryAppendItCarries() throws Exception {
        log.answer = appends -> appends.stream()
                .map(a -> a.runId().equals("a")
                        ? new AppendResult(false, 2, false)
                        : new AppendResult(true, a.nextSeq(), false))
                .toList();
        List<CompletableFuture<AppendResult>> queued = queuedTogether(steps("a", 3, 1, false), steps("a", 4, 1, false));

        assertThat(queued).allSatisfy(f -> assertThat(f.join()).isEqualTo(new AppendResult(false, 2, false)));
    }

    @Test
    void aWorldThatRefusesTheJoinedFormForGoodIsGivenTheAppendsAsQueued() throws Exception {
        log.answer = appends -> {
            if (appends.stream().anyMatch(a -> a.events().size() > 1)) {
                throw new WorldException("an append of 2 events is too large", false, null);
            }
            return appends.stream()
                    .map(a -> new AppendResult(true, a.nextSeq(), false))
                    .toList();
        };
        List<CompletableFuture<AppendResult>> queued = queuedTogether(steps("a", 3, 1, false), steps("a", 4, 1, false));

        assertThat(queued.stream().map(f -> f.join().logLength()).toList()).containsExactly(4L, 5L);
        assertThat(log.batches.subList(1, log.batches.size())).containsExactly(List.of("a"), List.of("a", "a"));
    }

    @Test
    void aTransientFailureOfTheJoinedFormIsNotRetriedHere() throws Exception {
        WorldException down = new WorldException("connection lost", true, null);
        log.answer = appends -> {
            if (appends.getFirst().runId().equals("a")) {
                throw down;
            }
            return appends.stream()
                    .map(a -> new AppendResult(true, a.nextSeq(), false))
                    .toList();
        };
        List<CompletableFuture<AppendResult>> queued = queuedTogether(steps("a", 3, 1, false), steps("a", 4, 1, false));

        assertThat(queued).allSatisfy(f -> assertThatThrownBy(f::join).cause().isSameAs(down));
        assertThat(log.batches).hasSize(2);
    }

    @Test
    void aConflictIsReportedToItsOwnAppendOnly() throws Exception {
        log.entered = new CountDownLatch(1);
        log.release = new CountDownLatch(1);
        log.answer = appends -> appends.stream()
                .map(a -> a.runId().equals("stale")
                        ? new AppendResult(false, 9, false)
                        : new AppendResult(true, a.nextSeq(), false))
                .toList();
        CompletableFuture<AppendResult> blocker = committer.submit(statusOnly("r0", 0));
        assertThat(log.entered.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<AppendResult> ok = committer.submit(statusOnly("fresh", 3));
        CompletableFuture<AppendResult> stale = committer.submit(statusOnly("stale", 3));
        log.release.countDown();

        assertThat(await(blocker).appended()).isTrue();
        assertThat(await(ok).appended()).isTrue();
        assertThat(await(stale).isConflict()).isTrue();
    }

    @Test
    void aFailedCommitFailsEveryAppendOfItsBatchWithTheSameError() {
        WorldException down = new WorldException("database is locked", true, null);
        log.answer = appends -> {
            throw down;
        };

        CompletableFuture<AppendResult> f = committer.submit(statusOnly("r1", 0));

        assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isSameAs(down);
    }

    @Test
    void theCommitterKeepsWorkingAfterAFailedCommit() throws Exception {
        log.answer = appends -> {
            throw new WorldException("busy", true, null);
        };
        CompletableFuture<AppendResult> failed = committer.submit(statusOnly("r1", 0));
        assertThatThrownBy(() -> failed.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);

        log.answer = appends -> appends.stream()
                .map(a -> new AppendResult(true, a.nextSeq(), false))
                .toList();

        assertThat(await(committer.submit(statusOnly("r1", 0))).appended()).isTrue();
    }

    @Test
    void afterCloseSubmissionsFailAsClosed() {
        committer.close();

        CompletableFuture<AppendResult> f = committer.submit(statusOnly("r1", 0));

        assertThat(f).isCompletedExceptionally();
        assertThatThrownBy(f::join)
                .cause()
                .isInstanceOf(WorldException.class)
                .hasMessageContaining("closed")
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isFalse());
    }

    @Test
    void closeCommitsWhatWasAlreadyQueued() throws Exception {
        log.entered = new CountDownLatch(1);
        log.release = new CountDownLatch(1);
        CompletableFuture<AppendResult> first = committer.submit(statusOnly("r0", 0));
        assertThat(log.entered.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<AppendResult> queued = committer.submit(statusOnly("r1", 0));

        Thread closer = Thread.ofVirtual().start(committer::close);
        log.release.countDown();
        closer.join(10_000);

        assertThat(await(first).appended()).isTrue();
        assertThat(await(queued).appended()).isTrue();
    }

    @Test
    void aWaitingThreadCommitsTheQueueItselfWhenTheLogAppendsInProcess() throws Exception {
        RecordingLog inProcess = new RecordingLog(true);
        Committer helped = new Committer(inProcess, inProcess.inProcess, Telemetry.OFF);
        try {
            Thread waiter = Thread.ofPlatform().name("waiting-run").start(() -> {
                for (int i = 0; i < 200; i++) {
                    CompletableFuture<AppendResult> f = helped.submit(statusOnly("r", i));
                    helped.help(f);
                    assertThat(f.join().logLength()).isEqualTo(i);
                }
            });
            waiter.join(30_000);

            assertThat(inProcess.batches).flatExtracting(b -> b).hasSize(200);
            assertThat(inProcess.threads)
                    .as("batches the waiting thread committed itself")
                    .contains("waiting-run");
            assertThat(inProcess.mostInFlight).as("commits in flight at once").isEqualTo(1);
        } finally {
            helped.close();
        }
    }

    @Test
    void aWaitingThreadLeavesTheCommitToTheCommitterWhenTheLogAppendsElsewhere() throws Exception {
        for (int i = 0; i < 50; i++) {
            CompletableFuture<AppendResult> f = committer.submit(statusOnly("r", i));
            committer.help(f);
            assertThat(await(f).logLength()).isEqualTo(i);
        }

        assertThat(log.threads).hasSize(50).containsOnly("worldflow-committer");
    }

    @Test
    void helpReturnsWithoutWaitingWhileAnotherCommitIsInFlight() throws Exception {
        RecordingLog inProcess = new RecordingLog(true);
        inProcess.entered = new CountDownLatch(1);
        inProcess.release = new CountDownLatch(1);
        Committer helped = new Committer(inProcess, inProcess.inProcess, Telemetry.OFF);
        try {
            CompletableFuture<AppendResult> first = helped.submit(statusOnly("r0", 0));
            assertThat(inProcess.entered.await(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<AppendResult> queued = helped.submit(statusOnly("r1", 0));

            helped.help(queued); // returns: the commit in flight is not this thread's to wait on

            assertThat(queued).isNotDone();
            inProcess.release.countDown();
            assertThat(await(first).appended()).isTrue();
            assertThat(await(queued).appended()).isTrue();
            assertThat(inProcess.batches).containsExactly(List.of("r0"), List.of("r1"));
        } finally {
            inProcess.release.countDown();
            helped.close();
        }
    }

    @Test
    void helpersAndTheCommitterKeepEachRunsAppendsInOrderAndCommitOneBatchAtATime() throws Exception {
        RecordingLog inProcess = new RecordingLog(true);
        Committer helped = new Committer(inProcess, inProcess.inProcess, Telemetry.OFF);
        List<Thread> runs = new ArrayList<>();
        try {
            for (int r = 0; r < 8; r++) {
                String runId = "run-" + r;
                runs.add(Thread.ofVirtual().start(() -> {
                    for (int seq = 0; seq < 100; seq += 2) {
                        helped.submit(statusOnly(runId, seq)); // pipelined: not waited for
                        CompletableFuture<AppendResult> f = helped.submit(statusOnly(runId, seq + 1));
                        helped.help(f);
                        f.join();
                    }
                }));
            }
            for (Thread t : runs) {
                t.join(30_000);
            }

            assertThat(inProcess.mostInFlight).isEqualTo(1);
            for (int r = 0; r < 8; r++) {
                String runId = "run-" + r;
                List<Long> seqs = inProcess.appended.stream()
                        .filter(a -> a.runId().equals(runId))
                        .map(Append::nextSeq)
                        .toList();
                assertThat(seqs)
                        .as("appends of %s in the order submitted", runId)
                        .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 100)
                                .boxed()
                                .toList());
            }
        } finally {
            helped.close();
        }
    }
}
