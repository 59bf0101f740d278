package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.TimerFired;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class AwaitShipmentTest {

    @TempDir
    Path tmp;

    @Test
    void theCarrierIsAskedAgainAfterLongerAndLongerPausesUntilTheParcelArrives() throws InterruptedException {
        AtomicInteger hops = new AtomicInteger(2);
        AtomicInteger asked = new AtomicInteger();
        Workflow<String, String> await = AwaitShipment.workflow(parcel -> {
            asked.incrementAndGet();
            return Math.max(0, hops.getAndDecrement());
        });
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/await.db")
                .register(await)
                .build()) {
            wf.startWorker();
            RunHandle<String> run = wf.start(await, "parcel-1");
            sleepingAfter(run, 1);
            clock.advance(Duration.ofSeconds(1));
            sleepingAfter(run, 2);
            clock.advance(Duration.ofSeconds(2));

            assertThat(run.result(Duration.ofSeconds(10))).startsWith("parcel-1 delivered at ");
            assertThat(asked).hasValue(3);
            assertThat(wf.events(run.id()))
                    .filteredOn(TimerFired.class::isInstance)
                    .hasSize(2);
            assertThat(wf.events(run.id()))
                    .filteredOn(StepCompleted.class::isInstance)
                    .hasSize(3);
        }
    }

    /** Waits until the run sleeps after its {@code checks}-th check. */
    private static void sleepingAfter(RunHandle<String> run, int checks) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            if (run.status() == RunStatus.SLEEPING && run.info().logLength() >= 4L * checks + 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("run " + run.id() + " did not sleep after check " + checks);
    }
}
