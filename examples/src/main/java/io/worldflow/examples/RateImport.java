package io.worldflow.examples;

import io.worldflow.RetryPolicy;
import io.worldflow.RunHandle;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.List;

/**
 * Imports exchange rates from a feed that sometimes hangs: each attempt of the import has a time limit and reports
 * its progress page by page, so an attempt that hangs is given up and tried again instead of holding the run.
 */
public final class RateImport {

    /** The rates feed: how many pages it has, and one page (which may hang). */
    public interface Feed {
        int pages();

        List<String> page(int n) throws InterruptedException;
    }

    private RateImport() {}

    // tag::timeout[]
    public static Workflow<String, Integer> workflow(Feed feed, Duration perAttempt, Duration perPage) {
        StepOptions limits = StepOptions.defaults()
                .withTimeout(perAttempt) // the whole attempt
                .withHeartbeatTimeout(perPage) // between two heartbeats
                .withRetry(RetryPolicy.fixed(3, Duration.ofMillis(100)));
        return Workflow.define(
                "rates.import",
                String.class,
                Integer.class,
                (ctx, day) -> ctx.step("import", limits, () -> {
                    int rates = 0;
                    for (int n = 0; n < feed.pages(); n++) {
                        rates += feed.page(n).size();
                        ctx.heartbeat("page " + n + " of " + day); // progress: the attempt is alive
                    }
                    return rates;
                }));
    }
    // end::timeout[]

    /** Three pages of rates, on the local world. */
    public static void main(String[] args) {
        Feed feed = new Feed() {
            @Override
            public int pages() {
                return 3;
            }

            @Override
            public List<String> page(int n) {
                return List.of("EUR/USD", "EUR/GBP");
            }
        };
        Workflow<String, Integer> rates = workflow(feed, Duration.ofMinutes(5), Duration.ofSeconds(30));
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "rate-import.db")
                .register(rates)
                .build()) {
            wf.startWorker();
            RunHandle<Integer> run = wf.start(rates, "2026-11-26");
            System.out.println(run.result(Duration.ofSeconds(30)) + " rates imported");
        }
    }
}
