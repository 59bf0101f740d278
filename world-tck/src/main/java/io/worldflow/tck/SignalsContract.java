package io.worldflow.tck;

import io.worldflow.Payload;
import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.spi.Append;
import io.worldflow.spi.Lease;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.RevokedUrl;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.TurnEnd;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Durable, buffered signals: stored in arrival order, kept until consumed (see
 * {@link RunProjectionContract} for consumption), and each one makes its run due for a turn.
 */
public abstract class SignalsContract extends WorldContractSupport {

    protected SignalsContract(WorldConformanceKit kit) {
        super(kit);
    }

    @Test
    void sendStoresSignalsInArrivalOrder() {
        create("order-1");
        markRunning("order-1");
        Instant t0 = now();
        Payload yes = payload(Map.of("approved", true, "by", "ana"));
        long a = signals().send("order-1", "approval", yes);
        clock.advance(Duration.ofSeconds(2));
        Payload address = payload(Map.of("street", "Rua Augusta 1", "city", "Lisboa"));
        long b = signals().send("order-1", "address", address);
        clock.advance(Duration.ofSeconds(3));
        long c = signals().send("order-1", "approval", Payload.NULL);

        assertThat(a).isLessThan(b);
        assertThat(b).isLessThan(c);
        assertThat(signals().pending("order-1"))
                .containsExactly(
                        new PendingSignal(a, "order-1", "approval", yes, t0),
                        new PendingSignal(b, "order-1", "address", address, t0.plusSeconds(2)),
                        new PendingSignal(c, "order-1", "approval", Payload.NULL, t0.plusSeconds(5)));
    }

    @Test
    void aSignalKeepsWhoSentItAndADuplicateKeepsTheFirstSender() {
        create("order-1");
        markRunning("order-1");

        long a = signals()
                .send("order-1", "approval", Payload.NULL, "k-1", "signal-url:Jx3k9QpL2mN8")
                .id();
        assertThat(signals().send("order-1", "approval", Payload.NULL, "k-1", "dashboard:mallory"))
                .isEqualTo(new SignalSent(a, true));
        long b = signals().send("order-1", "note", Payload.NULL);

        assertThat(signals().pending("order-1"))
                .extracting(PendingSignal::id, PendingSignal::actor)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(a, "signal-url:Jx3k9QpL2mN8"),
                        org.assertj.core.groups.Tuple.tuple(b, null));
    }

    @Test
    void sendKeepsEveryPayloadExactly() {
        create("order-1");
        List<Payload> payloads = List.of(
                payload("héllo ✓ \"quoted\" <script>alert(1)</script> \\ \n"),
                payload(List.of(1, 2, 3)),
                new Payload("{\"raw\":true}", null),
                payload(""),
                Payload.NULL);
        for (Payload p : payloads) {
            signals().send("order-1", "data", p);
        }

        assertThat(signals().pending("order-1"))
                .extracting(PendingSignal::payload)
                .containsExactlyElementsOf(payloads);
    }

    @Test
    void pendingListsOnlyThatRunsSignals() {
        create("order-1");
        create("order-2");
        signals().send("order-1", "approval", payload(1));
        signals().send("order-2", "approval", payload(2));
        signals().send("order-1", "approval", payload(3));

        assertThat(signals().pending("order-1"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload(1), payload(3));
        assertThat(signals().pending("order-2"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload(2));
        assertThat(signals().pending("order-1"))
                .extracting(PendingSignal::runId)
                .containsOnly("order-1");
    }

    @Test
    void pendingIsEmptyForARunWithoutSignals() {
        create("order-1");

        assertThat(signals().pending("order-1")).isEmpty();
    }

    @Test
    void signalSentBeforeTheRunStartsIsKept() {
        create("order-1");
        assertThat(info("order-1").status()).isEqualTo(RunStatus.PENDING);

        long id = signals().send("order-1", "approval", payload("early"));

        assertThat(signals().pending("order-1")).extracting(PendingSignal::id).containsExactly(id);
    }

    @Test
    void sendMakesAWaitingRunDue() {
        create("order-1");
        markRunning("order-1");
        tasks().complete(leaseRun("order-1"), null);
        assertNothingDue();

        signals().send("order-1", "approval", payload("yes"));

        leaseRun("order-1");
    }

    @Test
    void sendWakesARunWaitingWithATimeLimit() {
        create("order-1");
        markRunning("order-1");
        tasks().complete(leaseRun("order-1"), now().plus(Duration.ofDays(2)));

        signals().send("order-1", "approval", payload("yes"));

        leaseRun("order-1");
    }

    @Test
    void sendDoesNotWriteToTheLog() {
        create("order-1");
        markRunning("order-1");

        signals().send("order-1", "approval", payload("yes"));

        assertThat(info("order-1").logLength()).isEqualTo(2);
        assertThat(log().read("order-1", 0)).hasSize(2);
    }

    @Test
    void sendToAnUnknownRunThrowsAndWritesNothing() {
        assertThatThrownBy(() -> signals().send("ghost", "approval", payload("yes")))
                .isInstanceOf(RunNotFoundException.class)
                .satisfies(e -> assertThat(((RunNotFoundException) e).runId()).isEqualTo("ghost"));

        assertThat(queries().get("ghost")).isEmpty();
        assertThat(signals().pending("ghost")).isEmpty();
        assertNothingDue();
    }

    @Test
    void sendToAFinishedRunThrowsAndWritesNothing() {
        create("order-1");
        tasks().complete(leaseRun("order-1"), null);
        append("order-1", RunStatus.FAILED, new WorkflowFailed("order-1", 1, now(), sampleError()));

        assertThatThrownBy(() -> signals().send("order-1", "approval", payload("too late")))
                .isInstanceOf(RunFinishedException.class)
                .satisfies(e -> {
                    assertThat(((RunFinishedException) e).runId()).isEqualTo("order-1");
                    assertThat(((RunFinishedException) e).status()).isEqualTo(RunStatus.FAILED);
                });

        assertThat(signals().pending("order-1")).isEmpty();
        assertNothingDue();
        assertThat(info("order-1").logLength()).isEqualTo(2);
    }

    @Test
    void signalsSurviveReopen() {
        create("order-1");
        signals().send("order-1", "approval", payload("one"));
        signals().send("order-1", "approval", payload("two"));
        List<PendingSignal> before = signals().pending("order-1");

        reopen();

        assertThat(signals().pending("order-1")).isEqualTo(before);
        long third = signals().send("order-1", "approval", payload("three"));
        assertThat(third)
                .as("ids keep increasing after a restart")
                .isGreaterThan(before.getLast().id());
    }

    @Test
    void aSignalMakesTheRunDueEvenAcrossReopen() {
        create("order-1");
        tasks().complete(leaseRun("order-1"), null);
        signals().send("order-1", "approval", payload("yes"));

        reopen();

        leaseRun("order-1");
    }

    @Test
    void signalSentWhileLeasedIsNotHandedToAnotherWorker() {
        create("order-1");
        leaseRun("order-1");

        signals().send("order-1", "approval", payload("yes"));

        assertThat(lease("worker-b", 10)).isEmpty();
    }

    @Test
    void signalSentWhileLeasedMakesTheRunDueAfterTheLeaseCompletes() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        signals().send("order-1", "approval", payload("yes"));

        tasks().complete(lease, null);

        leaseRun("order-1");
        assertThat(signals().pending("order-1")).hasSize(1);
    }

    @Test
    void signalSentWhileLeasedWinsOverTheTurnsWakeAt() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        signals().send("order-1", "approval", payload("yes"));

        tasks().complete(lease, now().plus(Duration.ofHours(6)));

        leaseRun("order-1");
    }

    @Test
    void concurrentSendsAllArriveWithDistinctIncreasingIds() throws Exception {
        create("order-1");
        int senders = 8;
        int each = 25;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        List<Long> ids = new ArrayList<>();
        try {
            List<Future<List<Long>>> futures = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                int sender = s;
                futures.add(pool.submit(() -> {
                    go.await();
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        mine.add(signals().send("order-1", "tick", payload(sender * 1000 + i)));
                    }
                    return mine;
                }));
            }
            go.countDown();
            for (Future<List<Long>> f : futures) {
                List<Long> mine = f.get(45, TimeUnit.SECONDS);
                assertThat(mine).as("one sender's ids follow its order").isSorted();
                ids.addAll(mine);
            }
        } finally {
            pool.shutdownNow();
        }

        List<PendingSignal> pending = signals().pending("order-1");
        assertThat(pending).hasSize(senders * each);
        assertThat(pending)
                .extracting(PendingSignal::id)
                .doesNotHaveDuplicates()
                .isSorted()
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(lease("w", 10)).extracting(Lease::runId).containsExactly("order-1");
    }

    // ---------------------------------------------------------------- idempotency keys

    @Test
    void aKeyDeliversOneSignalPerRun() {
        create("order-1");
        create("order-2");

        SignalSent first = signals().send("order-1", "approval", payload("yes"), "k-1");
        SignalSent again = signals().send("order-1", "approval", payload("yes, again"), "k-1");
        SignalSent otherRun = signals().send("order-2", "approval", payload("yes"), "k-1");
        SignalSent otherKey = signals().send("order-1", "approval", payload("also"), "k-2");
        long noKey = signals().send("order-1", "approval", payload("plain"));

        assertThat(first.duplicate()).isFalse();
        assertThat(again).isEqualTo(new SignalSent(first.id(), true));
        assertThat(otherRun.duplicate()).isFalse();
        assertThat(otherKey.duplicate()).isFalse();
        assertThat(signals().pending("order-1"))
                .extracting(PendingSignal::id)
                .containsExactly(first.id(), otherKey.id(), noKey);
        assertThat(signals().pending("order-2")).extracting(PendingSignal::id).containsExactly(otherRun.id());
    }

    @Test
    void aKeyIsRememberedAfterItsSignalIsConsumedAndAcrossReopen() {
        create("order-1");
        Lease lease = leaseRun("order-1");
        SignalSent first = signals().send("order-1", "approval", payload("yes"), "once");
        append(new Append(
                "order-1",
                1,
                List.of(new StepScheduled("order-1", 1, now(), "s", "s")),
                RunStatus.RUNNING,
                List.of(first.id()),
                new TurnEnd(lease, null)));
        assertThat(signals().pending("order-1")).isEmpty();

        reopen();

        assertThat(signals().send("order-1", "approval", payload("yes"), "once"))
                .isEqualTo(new SignalSent(first.id(), true));
        assertThat(signals().pending("order-1")).isEmpty();
    }

    @Test
    void aBadKeyIsRefusedAndNothingIsStored() {
        create("order-1");

        assertThatThrownBy(() -> signals().send("order-1", "approval", payload("x"), " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> signals().send("order-1", "approval", payload("x"), "k".repeat(201)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("200");

        assertThat(signals().pending("order-1")).isEmpty();
    }

    @Test
    void aRevokedUrlIsKeptWithItsRunOnceWithWhoRevokedItAndWhenAndGoesWithThePurge() {
        create("order-1");
        create("order-2");
        Instant t0 = now();

        signals().revokeUrl("order-1", "tok-aaaaaaaa", "ops:ana");
        clock.advance(Duration.ofSeconds(5));
        signals().revokeUrl("order-1", "tok-bbbbbbbb", null);
        signals().revokeUrl("order-1", "tok-aaaaaaaa", "ops:bob"); // again: the first stays

        assertThat(signals().revokedUrls("order-1"))
                .containsExactly(
                        new RevokedUrl("tok-aaaaaaaa", t0, "ops:ana"),
                        new RevokedUrl("tok-bbbbbbbb", t0.plusSeconds(5), null));
        assertThat(signals().revokedUrls("order-2")).as("another run's").isEmpty();
        assertThat(signals().revokedUrls("ghost")).isEmpty();
        assertThat(reopen().signals().revokedUrls("order-1")).hasSize(2);

        finish("order-1");
        clock.advance(Duration.ofDays(1));
        assertThat(log().purgeFinished(now(), 10)).isEqualTo(1);
        assertThat(signals().revokedUrls("order-1")).isEmpty();
    }

    @Test
    void revokingAUrlOfAnUnknownRunOrWithABadTokenIdIsRefusedAndStoresNothing() {
        create("order-1");

        assertThatThrownBy(() -> signals().revokeUrl("ghost", "tok-aaaaaaaa", null))
                .isInstanceOf(RunNotFoundException.class);
        assertThatThrownBy(() -> signals().revokeUrl("order-1", " ", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token id");
        assertThatThrownBy(() -> signals().revokeUrl("order-1", "x".repeat(RevokedUrl.MAX_TOKEN_ID_LENGTH + 1), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(RevokedUrl.MAX_TOKEN_ID_LENGTH));

        assertThat(signals().revokedUrls("ghost")).isEmpty();
        assertThat(signals().revokedUrls("order-1")).isEmpty();
        assertThat(queries().get("ghost")).isEmpty();
    }
}
