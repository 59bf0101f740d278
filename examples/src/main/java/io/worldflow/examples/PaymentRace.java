package io.worldflow.examples;

import io.worldflow.CanceledException;
import io.worldflow.DurableFuture;
import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;

/**
 * An order that waits for whichever comes first: the payment provider's webhook, a person who approves it by hand (a
 * child run of its own), or a day passing. The losers are canceled; a canceled order gives its stock back.
 */
public final class PaymentRace {

    /** The stock service: what the order holds while it waits. */
    public interface Stock {
        String reserve(String order);

        /** Gives the order's stock back; says what it gave back. */
        String release(String order);
    }

    private PaymentRace() {}

    /** A person approves the order: the run waits for their answer as a signal, for up to a day. */
    public static final Workflow<String, String> MANUAL_APPROVAL = Workflow.define(
            "order.approve-by-hand",
            String.class,
            (ctx, order) -> ctx.awaitSignal("decision", String.class, Duration.ofDays(1))
                    .orElse("no decision"));

    // tag::race[]
    public static Workflow<String, String> workflow(Stock stock) {
        return Workflow.define("order.await-payment", String.class, (ctx, order) -> {
            ctx.step("reserve", () -> stock.reserve(order));
            try {
                DurableFuture<String> webhook = ctx.signalAsync("payment", String.class);
                DurableFuture<String> approval = ctx.childAsync("approval", MANUAL_APPROVAL, order);
                DurableFuture<Void> expiry = ctx.timer("expiry", Duration.ofHours(24));
                DurableFuture<?> first = ctx.race("paid-or-not", webhook, approval, expiry);
                if (first == webhook) {
                    return "paid: " + webhook.get();
                }
                if (first == approval) {
                    return "approved by hand: " + approval.get();
                }
                ctx.step("release", () -> stock.release(order)); // nobody paid within a day
                return "expired";
            } catch (CanceledException e) {
                // the run was canceled: what runs here still runs, and is recorded, despite the cancel
                ctx.detached("cleanup", scope -> scope.step("release", () -> stock.release(order)));
                throw e;
            }
        });
    }
    // end::race[]

    /** An order paid through the webhook, on the local world. */
    public static void main(String[] args) {
        Workflow<String, String> order = workflow(new Stock() {
            @Override
            public String reserve(String id) {
                return "held for " + id;
            }

            @Override
            public String release(String id) {
                System.out.println("released " + id);
                return "released " + id;
            }
        });
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "payment-race.db")
                .register(order)
                .register(MANUAL_APPROVAL)
                .build()) {
            wf.startWorker();
            RunHandle<String> run = wf.start(order, "order-" + System.currentTimeMillis());
            wf.signal(run.id(), "payment", "card ending 4242");
            System.out.println(run.result(Duration.ofSeconds(30)));
        }
    }
}
