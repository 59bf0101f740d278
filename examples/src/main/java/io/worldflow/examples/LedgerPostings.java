package io.worldflow.examples;

import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Postings to customers' accounts through a bank's API that allows a few calls at once and so many a second: the queue
 * holds every worker of the world to those limits, and the postings of one customer apply one at a time in the order
 * they were submitted, while other customers' go on.
 */
public final class LedgerPostings {

    /** A posting of {@code cents} to the account of {@code customer}. */
    public record Posting(String customer, long cents) {}

    /** The bank's API. */
    public interface Bank {
        long post(String customer, long cents);
    }

    private LedgerPostings() {}

    public static Workflow<Posting, Long> workflow(Bank bank) {
        return Workflow.define(
                "ledger.post", Posting.class, (ctx, p) -> ctx.step("post", () -> bank.post(p.customer(), p.cents())));
    }

    // tag::queue[]
    public static QueueSpec ledgerQueue() {
        return QueueSpec.named("ledger")
                .withConcurrency(4) // at most 4 postings in flight across all workers
                .withRateLimit(20, Duration.ofSeconds(1)); // and at most 20 starts a second, one every 50 ms
    }

    public static StartOptions postingFor(String customer) {
        return StartOptions.queue("ledger").withKey(customer); // one customer's postings: one at a time, in order
    }
    // end::queue[]

    /** Submits a few postings for three customers and prints the balances they leave. */
    public static void main(String[] args) {
        Workflow<Posting, Long> post = workflow(new InMemoryBank());
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "ledger.db")
                .property("worldflow.worker.queues", "default,ledger")
                .register(post)
                .queue(ledgerQueue())
                .build()) {
            wf.startWorker();
            List<RunHandle<Long>> runs = new ArrayList<>();
            for (int i = 1; i <= 10; i++) {
                String customer = "customer-" + (i % 3);
                runs.add(wf.start(post, new Posting(customer, i * 100L), postingFor(customer)));
            }
            QueueInfo queue = wf.queues().describe("ledger").orElseThrow();
            System.out.println("ledger: " + queue.running() + " running, " + queue.waiting() + " waiting");
            for (RunHandle<Long> run : runs) {
                System.out.println(run.id() + " -> balance " + run.result(Duration.ofSeconds(30)));
            }
        }
    }

    /** Balances kept in memory, for the demo. */
    static final class InMemoryBank implements Bank {
        private final java.util.Map<String, Long> balances = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public long post(String customer, long cents) {
            return balances.merge(customer, cents, Long::sum);
        }
    }
}
