package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.examples.OrderFulfilment.Approval;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Order;
import io.worldflow.examples.OrderFulfilment.Receipt;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo workflow tested the way users test theirs: a manual clock, no sleeping. */
@Timeout(60)
class OrderFulfilmentTest {

    @TempDir
    Path tmp;

    private final DemoServices services = new DemoServices(null, 0, false);
    private final Workflow<Order, Receipt> fulfil =
            OrderFulfilment.workflow(services, services, Duration.ofMinutes(10));
    private final Order order = new Order("o-1", "ada", List.of(new Item("mug", 1), new Item("tea", 2)), 1_200);

    @Test
    void anApprovedOrderIsChargedOnceAndShipped() {
        // tag::testing[]
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/t.db")
                .register(fulfil)
                .build()) {
            wf.startWorker();
            RunHandle<Receipt> run = wf.start(fulfil, order);
            awaitStatus(run, RunStatus.SLEEPING); // charged, cooling off
            clock.advance(Duration.ofMinutes(10)); // the cool-off timer fires
            wf.signal(run.id(), "approval", new Approval(true, "me"));
            assertThat(run.result(Duration.ofSeconds(10)).status()).isEqualTo("shipped");
        }
        // end::testing[]
    }

    @Test
    void aRejectedOrderIsRefunded() {
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/r.db")
                .register(fulfil)
                .build()) {
            wf.startWorker();
            RunHandle<Receipt> run = wf.start(fulfil, order);
            awaitStatus(run, RunStatus.SLEEPING);
            wf.signal(run.id(), "approval", new Approval(false, "me"));
            clock.advance(Duration.ofMinutes(10));
            Receipt receipt = run.result(Duration.ofSeconds(10));
            assertThat(receipt.status()).isEqualTo("refunded");
            assertThat(receipt.labels()).isEmpty();
        }
    }

    @Test
    void anOrderWithoutApprovalIsRefundedWhenTheWaitTimesOut() {
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/w.db")
                .register(fulfil)
                .build()) {
            wf.startWorker();
            RunHandle<Receipt> run = wf.start(fulfil, order);
            awaitStatus(run, RunStatus.SLEEPING);
            clock.advance(Duration.ofMinutes(10));
            awaitStatus(run, RunStatus.WAITING);
            clock.advance(Duration.ofMinutes(5));
            assertThat(run.result(Duration.ofSeconds(10)).status()).isEqualTo("refunded");
        }
    }

    @Test
    void aDeclinedChargeIsRetriedAfterItsBackoff() throws InterruptedException {
        DemoServices declining = new DemoServices(null, 0, true);
        Workflow<Order, Receipt> w = OrderFulfilment.workflow(declining, declining, Duration.ofMinutes(10));
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/d.db")
                .register(w)
                .build()) {
            wf.startWorker();
            RunHandle<Receipt> run = wf.start(w, order);
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (run.status() != RunStatus.SLEEPING && System.nanoTime() < end) {
                // the retry's backoff is on the clock too; move it gently (far past the 30 s lease, the
                // worker would rightly treat its own turn as lapsed and resume the run from the log)
                clock.advance(Duration.ofMillis(100));
                Thread.sleep(10);
            }
            assertThat(wf.events(run.id())).extracting(e -> e.type()).contains("StepRetrying", "StepCompleted");
            clock.advance(Duration.ofMinutes(10));
            wf.signal(run.id(), "approval", new Approval(true, "me"));
            assertThat(run.result(Duration.ofSeconds(10)).status()).isEqualTo("shipped");
        }
    }

    private static void awaitStatus(RunHandle<?> run, RunStatus status) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (run.status() != status) {
            if (System.nanoTime() > end) {
                throw new AssertionError(run + " did not become " + status + " (is " + run.status() + ")");
            }
            Thread.onSpinWait();
        }
    }
}
