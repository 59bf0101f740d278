package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class SubscriptionTest {

    @TempDir
    Path tmp;

    @Test
    void eachMonthIsARunOfItsOwnAndACancelSentToTheFirstReachesTheLast() throws InterruptedException {
        List<String> invoices = new CopyOnWriteArrayList<>();
        Workflow<Subscription.Plan, String> renew = Subscription.workflow(
                (customer, month) -> {
                    invoices.add(customer + " " + month);
                    return "invoice " + month;
                },
                Duration.ofDays(30));
        ManualClock clock = ManualClock.start();
        try (Worldflow wf = Worldflow.builder()
                .clock(clock)
                .property("worldflow.local.path", tmp + "/subscription.db")
                .register(renew)
                .build()) {
            wf.startWorker();
            RunHandle<String> run = wf.start(renew, new Subscription.Plan("ada", 0), StartOptions.id("sub-ada"));
            for (String month : List.of("sub-ada", "sub-ada~2", "sub-ada~3")) {
                awaitWaiting(wf, month);
                clock.advance(Duration.ofDays(30));
            }
            awaitWaiting(wf, "sub-ada~4");

            wf.signal("sub-ada", "cancel", "moving abroad");
            assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("ada paid 4 months, then: moving abroad");
            assertThat(invoices).containsExactly("ada 1", "ada 2", "ada 3", "ada 4");
            assertThat(wf.events("sub-ada~4")).hasSizeLessThan(12);
        }
    }

    private static void awaitWaiting(Worldflow wf, String runId) throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            if (wf.run(runId).map(r -> r.status() == RunStatus.WAITING).orElse(false)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(runId + " is not waiting: " + wf.run(runId));
    }
}
