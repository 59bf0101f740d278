package io.worldflow.examples;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.worldflow.RetryPolicy;
import io.worldflow.RunStatus;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The meters a worker records, read from the registry the application gave. */
@Timeout(60)
class MetricsTest {

    @TempDir
    Path tmp;

    private final AtomicInteger calls = new AtomicInteger();

    /** A step that fails its first attempt, a short durable timer, a step long enough to need its lease extended. */
    private final Workflow<String, String> billing = Workflow.define("billing", String.class, (ctx, account) -> {
        String invoice = ctx.step("invoice", StepOptions.retry(RetryPolicy.fixed(3, Duration.ofMillis(10))), () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("ledger busy");
            }
            return "inv-" + account;
        });
        ctx.sleep("settle", Duration.ofMillis(50));
        return ctx.step("send", () -> {
            Thread.sleep(700); // past two heartbeats of a 600 ms lease
            return invoice + " sent";
        });
    });

    private final Workflow<String, String> failing = Workflow.define(
            "failing",
            String.class,
            (ctx, in) -> ctx.step("always", () -> {
                throw new IllegalArgumentException("no such account: " + in);
            }));

    @Test
    void aWorkerCountsRunsStepsTurnsAppendsLeasesAndTimers() {
        MeterRegistry meters = new SimpleMeterRegistry();
        try (Worldflow wf = Worldflow.builder()
                .meterRegistry(meters)
                .register(billing)
                .register(failing)
                .property("worldflow.local.path", tmp + "/m.db")
                .build()) {
            wf.startWorker(WorkerOptions.defaults().withLease(Duration.ofMillis(600)));
            assertThat(wf.start(billing, "acme").result(Duration.ofSeconds(20))).isEqualTo("inv-acme sent");
            String failed = wf.start(failing, "nobody").id();
            awaitStatus(wf, failed, RunStatus.FAILED);
        }

        Tags billingTags = Tags.of("world", "local", "workflow", "billing", "queue", "default");
        assertThat(meters.get("worldflow.runs.started")
                        .tags(billingTags)
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get("worldflow.runs.ended")
                        .tags(billingTags)
                        .tag("outcome", "completed")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get("worldflow.runs.ended")
                        .tags("workflow", "failing")
                        .tag("outcome", "failed")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get("worldflow.runs.ended")
                        .tags(billingTags)
                        .tag("outcome", "failed")
                        .counter()
                        .count())
                .isZero();
        // invoice failed once and succeeded; send succeeded once, after at least 700 ms
        assertThat(meters.get("worldflow.steps.attempts")
                        .tags(billingTags)
                        .tag("outcome", "failure")
                        .timer()
                        .count())
                .isEqualTo(1);
        var succeeded = meters.get("worldflow.steps.attempts")
                .tags(billingTags)
                .tag("outcome", "success")
                .timer();
        assertThat(succeeded.count()).isEqualTo(2);
        assertThat(succeeded.max(java.util.concurrent.TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(700);
        // schedule-to-start: once per run, of its first turn
        assertThat(meters.get("worldflow.turns.lag").tags(billingTags).timer().count())
                .isEqualTo(1);
        assertThat(meters.get("worldflow.turns.duration")
                        .tags(billingTags)
                        .tag("outcome", "finished")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get("worldflow.timers.lateness")
                        .tags(billingTags)
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get("worldflow.appends.batch")
                        .tag("world", "local")
                        .summary()
                        .totalAmount())
                .isGreaterThanOrEqualTo(4);
        assertThat(meters.get("worldflow.appends.commit")
                        .tag("world", "local")
                        .timer()
                        .count())
                .isGreaterThanOrEqualTo(1);
        assertThat(meters.get("worldflow.leases.renewed")
                        .tag("queue", "default")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(1);
        assertThat(meters.get("worldflow.leases.lost")
                        .tag("queue", "default")
                        .counter()
                        .count())
                .isZero();
        assertThat(meters.get("worldflow.runs.active").gauge().value()).isZero();
    }

    @Test
    void aWorkerStoppedAndStartedAgainIsTheOneTheActiveGaugeCounts() throws Exception {
        MeterRegistry meters = new SimpleMeterRegistry();
        java.util.concurrent.Semaphore release = new java.util.concurrent.Semaphore(0);
        Workflow<String, String> held = Workflow.define(
                "held",
                String.class,
                (ctx, in) -> ctx.step("hold", () -> {
                    release.acquire();
                    return in;
                }));
        try (Worldflow wf = Worldflow.builder()
                .meterRegistry(meters)
                .register(held)
                .property("worldflow.local.path", tmp + "/restart.db")
                .build()) {
            wf.startWorker();
            var first = wf.start(held, "first");
            awaitGauge(meters, 1);
            release.release();
            assertThat(first.result(Duration.ofSeconds(20))).isEqualTo("first");
            wf.stopWorker();
            awaitGauge(meters, 0);

            wf.startWorker();
            var second = wf.start(held, "second");
            awaitGauge(meters, 1);
            release.release();
            assertThat(second.result(Duration.ofSeconds(20))).isEqualTo("second");
        }
    }

    private static void awaitGauge(MeterRegistry meters, double expected) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (meters.get("worldflow.runs.active").gauge().value() != expected && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(meters.get("worldflow.runs.active").gauge().value()).isEqualTo(expected);
    }

    @Test
    void aWorkersMetersReadZeroBeforeItsFirstRun() {
        MeterRegistry meters = new SimpleMeterRegistry();
        try (Worldflow wf = Worldflow.builder()
                .meterRegistry(meters)
                .register(billing)
                .register(failing)
                .property("worldflow.local.path", tmp + "/z.db")
                .build()) {
            // a client alone registers no workflow's meters: it does not know which queues its runs will use
            assertThat(meters.find("worldflow.runs.started").counters()).isEmpty();

            wf.startWorker(WorkerOptions.defaults().withQueues(Set.of("default", "bulk")));
            for (String workflow : List.of("billing", "failing")) {
                for (String queue : List.of("default", "bulk")) {
                    Tags tags = Tags.of("world", "local", "workflow", workflow, "queue", queue);
                    assertThat(meters.get("worldflow.runs.started")
                                    .tags(tags)
                                    .counter()
                                    .count())
                            .isZero();
                    assertThat(meters.get("worldflow.runs.ended")
                                    .tags(tags)
                                    .tag("outcome", "completed")
                                    .counter()
                                    .count())
                            .isZero();
                    assertThat(meters.get("worldflow.steps.attempts")
                                    .tags(tags)
                                    .tag("outcome", "success")
                                    .timer()
                                    .count())
                            .isZero();
                }
            }
            assertThat(meters.get("worldflow.leases.renewed")
                            .tag("queue", "bulk")
                            .counter()
                            .count())
                    .isZero();
            // only the queues the worker serves
            assertThat(meters.find("worldflow.runs.started")
                            .tag("queue", "other")
                            .counters())
                    .isEmpty();

            // the meters registered at the start are the ones the runs count on
            assertThat(wf.start(billing, "acme").result(Duration.ofSeconds(20))).isEqualTo("inv-acme sent");
            assertThat(meters.find("worldflow.runs.started")
                            .tag("workflow", "billing")
                            .counters())
                    .hasSize(2);
            assertThat(meters.get("worldflow.runs.started")
                            .tags(Tags.of("workflow", "billing", "queue", "default"))
                            .counter()
                            .count())
                    .isEqualTo(1);
        }
    }

    @Test
    void aRunTheCodeNoLongerMatchesIsCountedHeld() {
        Workflow<String, String> before = Workflow.define("renewal", String.class, (ctx, in) -> {
            ctx.step("quote", () -> "q");
            return ctx.awaitSignal("go", String.class, Duration.ofDays(1)).orElse("none");
        });
        Workflow<String, String> changed = Workflow.define("renewal", String.class, (ctx, in) -> {
            ctx.step("price", () -> "p"); // was "quote": the history contradicts this code
            return "done";
        });
        String runId;
        try (Worldflow wf = Worldflow.builder()
                .register(before)
                .property("worldflow.local.path", tmp + "/h.db")
                .build()) {
            wf.startWorker();
            runId = wf.start(before, "x").id();
            awaitStatus(wf, runId, RunStatus.WAITING);
        }
        MeterRegistry meters = new SimpleMeterRegistry();
        try (Worldflow wf = Worldflow.builder()
                .meterRegistry(meters)
                .register(changed)
                .property("worldflow.local.path", tmp + "/h.db")
                .build()) {
            // a held run is tried again every 100 ms here: still one run held
            wf.startWorker(WorkerOptions.defaults().withHoldRetry(Duration.ofMillis(100)));
            wf.signal(runId, "go", "now");
            Tags tags = Tags.of("world", "local", "workflow", "renewal", "queue", "default");
            // the hold is written before its turn ends and is counted: wait for two held turns
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < end
                    && (meters.find("worldflow.turns.duration")
                                            .tags(tags)
                                            .tag("outcome", "held")
                                            .timer()
                                    == null
                            || meters.get("worldflow.turns.duration")
                                            .tags(tags)
                                            .tag("outcome", "held")
                                            .timer()
                                            .count()
                                    < 2)) {
                Thread.onSpinWait();
            }
            assertThat(wf.run(runId).orElseThrow().held()).isNotNull();
            assertThat(meters.get("worldflow.runs.held").tags(tags).counter().count())
                    .isEqualTo(1);
            assertThat(meters.get("worldflow.turns.duration")
                            .tags(tags)
                            .tag("outcome", "held")
                            .timer()
                            .count())
                    .isGreaterThanOrEqualTo(2);
            assertThat(meters.get("worldflow.runs.ended").tags(tags).counters())
                    .allSatisfy(c -> assertThat(c.count()).isZero());
        }
    }

    private static void awaitStatus(Worldflow wf, String runId, RunStatus status) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (wf.handle(runId).status() != status) {
            if (System.nanoTime() > end) {
                throw new AssertionError(runId + " did not become " + status);
            }
            Thread.onSpinWait();
        }
    }
}
