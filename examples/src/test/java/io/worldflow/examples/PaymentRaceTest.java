package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowCanceledException;
import io.worldflow.event.PrimitiveCanceled;
import io.worldflow.event.RaceWon;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class PaymentRaceTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    private final List<String> released = new CopyOnWriteArrayList<>();
    private final ManualClock clock = ManualClock.start();
    private Worldflow wf;
    private Workflow<String, String> order;

    @BeforeEach
    void start() {
        order = PaymentRace.workflow(new PaymentRace.Stock() {
            @Override
            public String reserve(String id) {
                return "held " + id;
            }

            @Override
            public String release(String id) {
                released.add(id);
                return "released " + id;
            }
        });
        wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/race.db")
                .register(order)
                .register(PaymentRace.MANUAL_APPROVAL)
                .build();
        wf.startWorker();
    }

    @AfterEach
    void stop() {
        wf.close();
    }

    @Test
    void theWebhookWinsAndTheApprovalRunIsCanceled() throws InterruptedException {
        RunHandle<String> run = wf.start(order, "o-1", StartOptions.id("o-1"));
        awaitStatus("o-1/approval", RunStatus.WAITING);

        wf.signal("o-1", "payment", "card 4242");
        assertThat(run.result(WAIT)).isEqualTo("paid: card 4242");
        assertThat(wf.events("o-1"))
                .filteredOn(RaceWon.class::isInstance)
                .singleElement()
                .satisfies(w -> assertThat(((RaceWon) w).winnerId()).isEqualTo("payment"));
        awaitStatus("o-1/approval", RunStatus.CANCELED);
        assertThat(released).isEmpty();
    }

    @Test
    void aPersonApprovesByHand() throws InterruptedException {
        RunHandle<String> run = wf.start(order, "o-2", StartOptions.id("o-2"));
        awaitStatus("o-2/approval", RunStatus.WAITING);

        wf.signal("o-2/approval", "decision", "ok, Ada");
        assertThat(run.result(WAIT)).isEqualTo("approved by hand: ok, Ada");
        assertThat(wf.events("o-2"))
                .filteredOn(PrimitiveCanceled.class::isInstance)
                .extracting(e -> ((PrimitiveCanceled) e).primitiveId())
                .containsExactlyInAnyOrder("payment", "expiry");
    }

    @Test
    void aDayWithoutPaymentReleasesTheStock() throws InterruptedException {
        RunHandle<String> run = wf.start(order, "o-3", StartOptions.id("o-3"));
        awaitStatus("o-3", RunStatus.WAITING);

        clock.advance(Duration.ofHours(24));
        assertThat(run.result(WAIT)).isEqualTo("expired");
        assertThat(released).containsExactly("o-3");
    }

    @Test
    void aCanceledOrderGivesItsStockBack() throws InterruptedException {
        RunHandle<String> run = wf.start(order, "o-4", StartOptions.id("o-4"));
        awaitStatus("o-4", RunStatus.WAITING);

        wf.cancel("o-4", "customer left");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        assertThat(released).containsExactly("o-4");
        awaitStatus("o-4/approval", RunStatus.CANCELED);
    }

    /** An operator's termination ends the order at once: none of its code runs, so its stock stays reserved. */
    @Test
    void aTerminatedOrderEndsWithoutItsCleanup() throws InterruptedException {
        RunHandle<String> run = wf.start(order, "o-5", StartOptions.id("o-5"));
        awaitStatus("o-5", RunStatus.WAITING);

        wf.terminate("o-5", "fraud suspected: keep the stock for review");
        assertThatThrownBy(() -> run.result(WAIT)).isInstanceOf(WorkflowCanceledException.class);
        awaitStatus("o-5/approval", RunStatus.CANCELED);
        assertThat(released).isEmpty();
        assertThat(wf.events("o-5"))
                .filteredOn(WorkflowCancelRequested.class::isInstance)
                .singleElement()
                .satisfies(e ->
                        assertThat(((WorkflowCancelRequested) e).terminate()).isTrue());
    }

    private void awaitStatus(String runId, RunStatus status) throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            if (wf.run(runId).map(r -> r.status() == status).orElse(false)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(runId + " did not become " + status + ": " + wf.run(runId));
    }
}
