package io.worldflow.cli;

import io.worldflow.RetryPolicy;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The workflows the tests leave runs of: {@code greet} completes, {@code approval} waits for signal {@code approval},
 * {@code checkout} fails while the card does not work, {@code nap} sleeps an hour.
 */
final class TestWorkflows {

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    static final Duration WAIT = Duration.ofSeconds(30);

    /** Whether {@code checkout}'s charge succeeds: false until a test retries the failed run. */
    final AtomicBoolean cardWorks = new AtomicBoolean();

    final Workflow<String, String> greet =
            Workflow.define("greet", String.class, (ctx, in) -> ctx.step("hello", () -> "hello " + in));

    final Workflow<String, String> approval = Workflow.define("approval", String.class, (ctx, in) -> {
        String prepared = ctx.step("prepare", () -> "prepared " + in);
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = ctx.awaitSignal("approval", Map.class);
        return ctx.step("finish", () -> prepared + ", approved by " + answer.get("by"));
    });

    final Workflow<String, String> checkout = Workflow.define(
            "checkout",
            String.class,
            (ctx, in) -> ctx.step("charge", StepOptions.retry(RetryPolicy.none()), () -> {
                if (!cardWorks.get()) {
                    throw new IllegalStateException("card declined for " + in);
                }
                return "charged " + in;
            }));

    final Workflow<String, String> nap = Workflow.define("nap", String.class, (ctx, in) -> {
        ctx.sleep("nap", Duration.ofHours(1));
        return in;
    });

    /** A Worldflow of these workflows over the world {@code properties} configure, its worker started. */
    Worldflow open(Map<String, String> properties) {
        Worldflow wf = Worldflow.builder()
                .properties(properties)
                .property("worldflow.worker.poll-interval", "200ms")
                .register(greet)
                .register(approval)
                .register(checkout)
                .register(nap)
                .build();
        wf.startWorker();
        return wf;
    }

    /**
     * The runs every test reads and acts on, each left where it stays until a command changes it: {@code greet-1}
     * completed (customer acme), {@code approval-1} and {@code approval-2} waiting (customer beta), {@code
     * checkout-1} failed, {@code nap-1} sleeping.
     */
    void startRuns(Worldflow wf) {
        wf.start(greet, "ada", StartOptions.id("greet-1").withSearchAttribute(CUSTOMER, "acme"));
        wf.start(
                approval,
                "invoice 7",
                StartOptions.id("approval-1")
                        .withSearchAttribute(CUSTOMER, "beta")
                        .withKey("beta"));
        wf.start(approval, "invoice 8", StartOptions.id("approval-2").withSearchAttribute(CUSTOMER, "beta"));
        wf.start(checkout, "order 9", StartOptions.id("checkout-1"));
        wf.start(nap, "zzz", StartOptions.id("nap-1"));
        awaitStatus(wf, "greet-1", RunStatus.COMPLETED);
        awaitStatus(wf, "approval-1", RunStatus.WAITING);
        awaitStatus(wf, "approval-2", RunStatus.WAITING);
        awaitStatus(wf, "checkout-1", RunStatus.FAILED);
        awaitStatus(wf, "nap-1", RunStatus.SLEEPING);
    }

    static RunInfo awaitStatus(Worldflow wf, String runId, RunStatus status) {
        long end = System.nanoTime() + WAIT.toNanos();
        RunInfo info = null;
        while (System.nanoTime() < end) {
            info = wf.run(runId).orElse(null);
            if (info != null && info.status() == status) {
                return info;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("run " + runId + " is not " + status + " after " + WAIT + ": " + info);
    }
}
