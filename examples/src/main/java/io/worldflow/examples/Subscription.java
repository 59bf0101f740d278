package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.Optional;

/**
 * A subscription that renews every month for as long as the customer keeps it: one run per month, each handing over
 * to the next with {@code continueAsNew}, so that years of renewals never make a long log.
 */
public final class Subscription {

    /** Where a subscription stands: its customer, the months paid so far. */
    public record Plan(String customer, int monthsPaid) {}

    /** The billing service. */
    public interface Billing {
        String charge(String customer, int month);
    }

    private Subscription() {}

    // tag::continue[]
    public static Workflow<Plan, String> workflow(Billing billing, Duration month) {
        return Workflow.define("subscription.renew", Plan.class, String.class, (ctx, plan) -> {
            int next = plan.monthsPaid() + 1;
            ctx.step("charge", () -> billing.charge(plan.customer(), next));
            // a month passes, unless the customer cancels first (a signal to the first run reaches the current one)
            Optional<String> cancel = ctx.awaitSignal("cancel", String.class, month);
            if (cancel.isPresent()) {
                return plan.customer() + " paid " + next + " months, then: " + cancel.get();
            }
            return ctx.continueAsNew(new Plan(plan.customer(), next)); // this run ends, the next month's begins
        });
    }
    // end::continue[]

    /** Three monthly renewals a second apart on the local world, then a cancel. */
    public static void main(String[] args) throws InterruptedException {
        Workflow<Plan, String> renew =
                workflow((customer, month) -> "invoice " + month + " for " + customer, Duration.ofSeconds(1));
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "subscription.db")
                .register(renew)
                .build()) {
            wf.startWorker();
            RunHandle<String> run = wf.start(renew, new Plan("ada-" + System.currentTimeMillis(), 0));
            Thread.sleep(2_500);
            wf.signal(run.id(), "cancel", "moved to the yearly plan");
            System.out.println(run.result(Duration.ofSeconds(30)));
        }
    }
}
