package io.worldflow.tck;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The event log: creating runs, appending with an expected sequence, reading back. The projection
 * kept next to the log (status, cancellation, holds, consumed signals, turn ends) is
 * {@link RunProjectionContract}.
 */
public abstract class EventLogContract extends WorldContractSupport {

    protected EventLogContract(WorldConformanceKit kit) {
        super(kit);
    }

    private boolean supportsSharedStorage() {
        return kit().supportsSharedStorage();
    }

    // ---- create ----

    @Test
    void createWritesWorkflowStartedAtSeqZero() {
        NewRun run = newRun("order-1");

        log().create(run);

        assertThat(log().read("order-1", 0)).containsExactly(run.startedEvent());
    }

    @Test
    void theFirstEventKeepsTheTraceContextTheRunWasStartedIn() {
        String traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        NewRun alone = newRun("order-1").withTrace(traceParent, "vendor=abc");
        NewRun batched = newRun("order-2").withTrace(traceParent, null);
        NewRun untraced = newRun("order-3");

        log().create(alone);
        log().createAll(List.of(batched, untraced));

        WorkflowStarted first = (WorkflowStarted) log().read("order-1", 0).getFirst();
        assertThat(first.traceParent()).isEqualTo(traceParent);
        assertThat(first.traceState()).isEqualTo("vendor=abc");
        assertThat(log().read("order-2", 0)).containsExactly(batched.startedEvent());
        assertThat(((WorkflowStarted) log().read("order-2", 0).getFirst()).traceParent())
                .isEqualTo(traceParent);
        assertThat(((WorkflowStarted) log().read("order-3", 0).getFirst()).traceParent())
                .isNull();
    }

    @Test
    void createReturnsAPendingRunWithTheGivenFields() {
        Instant createdAt = now();
        Instant availableAt = createdAt.plus(Duration.ofMinutes(5));
        Instant deadline = createdAt.plus(Duration.ofDays(1));
        NewRun run = new NewRun(
                "order-1", WORKFLOW, payload(orderInput("order-1")), createdAt, availableAt, deadline, "billing", 7);

        CreateResult result = log().create(run);

        assertThat(result.created()).isTrue();
        RunInfo expected = new RunInfo(
                "order-1",
                WORKFLOW,
                RunStatus.PENDING,
                run.input(),
                null,
                null,
                createdAt,
                createdAt,
                availableAt,
                deadline,
                "billing",
                7,
                1,
                null,
                null,
                null);
        assertThat(result.run()).isEqualTo(expected);
        assertThat(queries().get("order-1")).contains(expected);
        assertThat(log().read("order-1", 0))
                .containsExactly(new WorkflowStarted("order-1", 0, createdAt, WORKFLOW, run.input(), deadline));
    }

    @Test
    void createAllCreatesEachNewRunWithItsTurnAndLeavesAnExistingOneAsItIs() {
        NewRun existing = newRun("order-1");
        log().create(existing);
        Instant later = now().plusSeconds(10); // before the first leases lapse
        NewRun due = newRun("order-2");
        NewRun delayed = newRun("order-3", QUEUE, 5, later);
        NewRun again = new NewRun("order-1", WORKFLOW, payload("other input"), now(), now(), null, QUEUE, 9);

        log().createAll(List.of(due, delayed, again));
        log().createAll(List.of());

        assertThat(log().read("order-2", 0)).containsExactly(due.startedEvent());
        assertThat(log().read("order-3", 0)).containsExactly(delayed.startedEvent());
        assertThat(log().read("order-1", 0)).as("left as it was").containsExactly(existing.startedEvent());
        assertThat(info("order-1").priority()).isZero();
        assertThat(tasks().lease("worker-a", java.util.Set.of(QUEUE), 10, LEASE))
                .extracting(io.worldflow.spi.Lease::runId)
                .containsExactlyInAnyOrder("order-1", "order-2");
        clock.set(later);
        assertThat(tasks().lease("worker-a", java.util.Set.of(QUEUE), 10, LEASE))
                .extracting(io.worldflow.spi.Lease::runId)
                .containsExactly("order-3");
    }

    @Test
    void createIsIdempotentById() {
        RunInfo original = create("order-1");
        clock.advance(Duration.ofMinutes(1));
        NewRun again = new NewRun(
                "order-1",
                "another.workflow",
                payload("another input"),
                now(),
                now(),
                now().plus(Duration.ofHours(1)),
                "other-queue",
                99);

        CreateResult second = log().create(again);

        assertThat(second.created()).isFalse();
        assertThat(second.run()).isEqualTo(original);
        assertThat(second.run().input()).isEqualTo(original.input());
        assertThat(info("order-1")).isEqualTo(original);
        assertThat(log().read("order-1", 0))
                .hasSize(1)
                .first()
                .isInstanceOf(WorkflowStarted.class)
                .extracting(e -> ((WorkflowStarted) e).input())
                .isEqualTo(original.input());
    }

    @Test
    void createOfAnExistingRunReturnsItsCurrentState() {
        create("order-1");
        markRunning("order-1");
        RunInfo current = info("order-1");

        CreateResult second = log().create(newRun("order-1"));

        assertThat(second.created()).isFalse();
        assertThat(second.run()).isEqualTo(current);
        assertThat(second.run().status()).isEqualTo(RunStatus.RUNNING);
    }

    // ---- append and read ----

    @Test
    void appendWithTheExpectedSeqWritesTheEvents() {
        NewRun run = newRun("order-1");
        log().create(run);
        List<Event> events = List.of(
                new StepScheduled("order-1", 1, now(), "charge", "charge"),
                new StepStarted("order-1", 2, now(), "charge", 1),
                new StepCompleted("order-1", 3, now(), "charge", 1, payload(Map.of("chargeId", "ch_1"))));

        AppendResult result = append(new Append("order-1", 1, events, RunStatus.RUNNING));

        assertThat(result).isEqualTo(new AppendResult(true, 4, false));
        List<Event> expected = new ArrayList<>();
        expected.add(run.startedEvent());
        expected.addAll(events);
        assertThat(log().read("order-1", 0)).containsExactlyElementsOf(expected);
    }

    @Test
    void everyKindOfEventReadsBackEqual() {
        NewRun run = newRun("order-1");
        log().create(run);
        String id = "order-1";
        Instant t = now();
        ErrorInfo error = sampleError();
        List<Event> events = List.of(
                new StepScheduled(id, 1, t, "charge", "charge"),
                new StepStarted(id, 2, t, "charge", 1),
                new StepRetrying(id, 3, t, "charge", 1, error, t.plusSeconds(2)),
                new StepFailed(id, 4, t, "charge", 2, ErrorInfo.of("com.acme.Declined", null)),
                new StepCompleted(id, 5, t, "charge", 3, Payload.NULL),
                new TimerScheduled(id, 6, t, "cool-off", "cool-off", t.plus(Duration.ofMinutes(10))),
                new TimerFired(id, 7, t.plus(Duration.ofMinutes(10)), "cool-off"),
                new SignalRequested(id, 8, t, "approval", "approval", t.plus(Duration.ofDays(2))),
                new SignalRequested(id, 9, t, "approval#2", "approval", null),
                new SignalReceived(id, 10, t, "approval", "approval", payload(Map.of("ok", true)), t.minusSeconds(3)),
                new SignalTimedOut(id, 11, t, "approval#2", "approval"),
                new ParallelStarted(id, 12, t, "labels", "labels", 3),
                new ParallelCompleted(id, 13, t, "labels"),
                new MarkerRecorded(id, 14, t, "now#1", "now", payload(t.toString())),
                new MarkerRecorded(id, 15, t, "uuid#1", "uuid", new Payload("\"6f1c\"", null)),
                new StepCompleted(
                        id,
                        16,
                        t,
                        "labels/0/label",
                        1,
                        payload(List.of(Map.of("text", "héllo ✓ \"quoted\" <b>&</b> \\ \n tab\t")))),
                new WorkflowCancelRequested(id, 17, t, "customer asked", t.minusSeconds(1)));

        AppendResult result = append(new Append(id, 1, events, RunStatus.RUNNING));

        assertThat(result.appended()).isTrue();
        List<Event> read = log().read(id, 1);
        assertThat(read).containsExactlyElementsOf(events);
        assertThat(((StepRetrying) read.get(2)).error()).isEqualTo(error);
    }

    @Test
    void appendRejectsStaleSequence() {
        create("order-1");
        markRunning("order-1");
        List<Event> before = log().read("order-1", 0);

        AppendResult result =
                append(new Append("order-1", 1, List.of(stepScheduled("order-1", 1)), RunStatus.SLEEPING));

        assertThat(result).isEqualTo(new AppendResult(false, 2, false));
        assertThat(result.isConflict()).isTrue();
        assertThat(log().read("order-1", 0)).isEqualTo(before);
        assertThat(info("order-1").status()).isEqualTo(RunStatus.RUNNING);
        assertThat(info("order-1").logLength()).isEqualTo(2);
    }

    @Test
    void appendRejectsFutureSequence() {
        create("order-1");
        RunInfo before = info("order-1");

        AppendResult result = append(new Append("order-1", 5, steps("order-1", 5, 2), RunStatus.RUNNING));

        assertThat(result.appended()).isFalse();
        assertThat(result.isConflict()).isTrue();
        assertThat(result.logLength()).isEqualTo(1);
        assertThat(log().read("order-1", 0)).hasSize(1);
        assertThat(info("order-1")).isEqualTo(before);
    }

    @Test
    void aConflictWritesNoneOfTheBatchsEvents() {
        create("order-1");
        markRunning("order-1");

        append(new Append("order-1", 1, steps("order-1", 1, 5), RunStatus.RUNNING));

        assertThat(log().read("order-1", 0)).extracting(Event::seq).containsExactly(0L, 1L);
    }

    @Test
    void appendToUnknownRunIsMissing() {
        AppendResult result = append(new Append("ghost", 1, steps("ghost", 1, 1), RunStatus.RUNNING));

        assertThat(result).isEqualTo(AppendResult.missing());
        assertThat(result.isConflict()).isFalse();
        assertThat(queries().get("ghost")).isEmpty();
    }

    @Test
    void appendAppliesEachAppendOfABatchIndependently() {
        for (int i = 0; i < 6; i++) {
            create("run-" + i);
        }
        markRunning("run-3"); // run-3 is now at length 2, so an append at 1 conflicts
        List<Append> batch = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            batch.add(new Append("run-" + i, 1, steps("run-" + i, 1, 2), RunStatus.RUNNING));
        }
        batch.add(new Append("ghost", 1, steps("ghost", 1, 1), RunStatus.RUNNING));

        List<AppendResult> results = log().append(batch);

        assertThat(results)
                .containsExactly(
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 3, false),
                        new AppendResult(false, 2, false),
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 3, false),
                        AppendResult.missing());
        for (int i = 0; i < 6; i++) {
            assertThat(log().read("run-" + i, 0)).as("log of run-%d", i).hasSize(i == 3 ? 2 : 3);
        }
        assertThat(log().read("run-4", 1)).isEqualTo(steps("run-4", 1, 2));
    }

    @Test
    void appendOfAnEmptyBatchReturnsNoResults() {
        assertThat(log().append(List.of())).isEmpty();
    }

    @Test
    void concurrentAppendsAtTheSameSequenceHaveOneWinner() throws Exception {
        create("order-1");
        int writers = 8;
        CountDownLatch go = new CountDownLatch(1);
        List<Callable<AppendResult>> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String stepId = "writer-" + w;
            tasks.add(() -> {
                go.await();
                return append(new Append(
                        "order-1",
                        1,
                        List.of(new StepScheduled("order-1", 1, now(), stepId, stepId)),
                        RunStatus.RUNNING));
            });
        }
        List<AppendResult> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<AppendResult>> futures = new ArrayList<>();
            for (Callable<AppendResult> task : tasks) {
                futures.add(pool.submit(task));
            }
            go.countDown();
            for (Future<AppendResult> f : futures) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(results).filteredOn(AppendResult::appended).hasSize(1);
        assertThat(results)
                .filteredOn(AppendResult::isConflict)
                .hasSize(writers - 1)
                .allSatisfy(r -> assertThat(r.logLength()).isEqualTo(2));
        assertThat(log().read("order-1", 0)).hasSize(2);
    }

    @Test
    void readFromTheMiddleReturnsTheRest() {
        create("order-1");
        append(new Append("order-1", 1, steps("order-1", 1, 5), RunStatus.RUNNING));

        assertThat(log().read("order-1", 3)).isEqualTo(steps("order-1", 3, 3));
        assertThat(log().read("order-1", 5)).isEqualTo(steps("order-1", 5, 1));
        assertThat(log().read("order-1", 6)).isEmpty();
        assertThat(log().read("order-1", 100)).isEmpty();
    }

    @Test
    void readOfUnknownRunThrowsRunNotFound() {
        assertThatThrownBy(() -> log().read("ghost", 0))
                .isInstanceOf(RunNotFoundException.class)
                .satisfies(e -> assertThat(((RunNotFoundException) e).runId()).isEqualTo("ghost"));
    }

    @Test
    void aThousandEventRunReadsBackInOrder() {
        NewRun run = newRun("long-run");
        log().create(run);
        List<Event> expected = new ArrayList<>();
        expected.add(run.startedEvent());
        long seq = 1;
        while (seq < 1000) {
            int n = (int) Math.min(97, 1000 - seq);
            List<Event> batch = new ArrayList<>();
            for (int i = 0; i < n; i++, seq++) {
                batch.add(
                        seq % 2 == 0
                                ? new StepCompleted("long-run", seq, now(), "loop/~" + seq + "/fetch", 1, payload(seq))
                                : new StepScheduled("long-run", seq, now(), "loop/~" + seq + "/fetch", "fetch"));
            }
            clock.advance(MS);
            assertThat(append(new Append("long-run", batch.getFirst().seq(), batch, RunStatus.RUNNING))
                            .appended())
                    .isTrue();
            expected.addAll(batch);
        }

        List<Event> read = log().read("long-run", 0);

        assertThat(read).hasSize(1000);
        assertThat(read).extracting(Event::seq).isSorted().doesNotHaveDuplicates();
        assertThat(read).containsExactlyElementsOf(expected);
        assertThat(info("long-run").logLength()).isEqualTo(1000);
        assertThat(log().read("long-run", 990)).containsExactlyElementsOf(expected.subList(990, 1000));
    }

    // ---- durability ----

    @Test
    void runsAndEventsSurviveReopen() {
        NewRun run = newRun("order-1");
        log().create(run);
        append(new Append(
                "order-1",
                1,
                List.of(
                        new StepScheduled("order-1", 1, now(), "charge", "charge"),
                        new StepFailed("order-1", 2, now(), "charge", 1, sampleError())),
                RunStatus.RUNNING));
        create("order-2");
        List<Event> events = log().read("order-1", 0);
        RunInfo info1 = info("order-1");
        RunInfo info2 = info("order-2");

        reopen();

        assertThat(log().read("order-1", 0)).isEqualTo(events);
        assertThat(info("order-1")).isEqualTo(info1);
        assertThat(info("order-2")).isEqualTo(info2);
        assertThat(log().create(run).created()).isFalse();
        assertThat(append(new Append("order-1", 3, steps("order-1", 3, 1), RunStatus.RUNNING))
                        .appended())
                .isTrue();
        assertThat(append(new Append("order-1", 3, steps("order-1", 3, 1), RunStatus.RUNNING))
                        .isConflict())
                .isTrue();
    }

    @Test
    void aSecondWorldOverTheSameStoreSharesTheLogOrIsRefused() {
        create("order-1");
        if (!supportsSharedStorage()) {
            assertThatThrownBy(this::open)
                    .isInstanceOf(io.worldflow.WorldException.class)
                    .satisfies(e -> assertThat(((io.worldflow.WorldException) e).isTransient())
                            .isFalse());
            assertThat(append(new Append("order-1", 1, steps("order-1", 1, 1), RunStatus.RUNNING))
                            .appended())
                    .isTrue();
            assertThat(log().read("order-1", 0)).hasSize(2);
            return;
        }
        try (var other = open()) {
            assertThat(other.eventLog().read("order-1", 0)).hasSize(1);
            AppendResult fromOther = other.eventLog()
                    .append(List.of(new Append("order-1", 1, steps("order-1", 1, 1), RunStatus.RUNNING)))
                    .getFirst();
            assertThat(fromOther.appended()).isTrue();
        }

        assertThat(append(new Append("order-1", 1, steps("order-1", 1, 1), RunStatus.RUNNING))
                        .isConflict())
                .isTrue();
        assertThat(log().read("order-1", 0)).hasSize(2);
    }
}
