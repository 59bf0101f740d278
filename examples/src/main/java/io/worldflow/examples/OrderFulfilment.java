package io.worldflow.examples;

import io.worldflow.RetryPolicy;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The order-fulfilment workflow of the README: charge, cool off, wait for approval, label in parallel. */
public final class OrderFulfilment {

    public record Item(String sku, int qty) {}

    public record Order(String id, String customer, List<Item> items, long amountCents) {}

    public record Charge(String id, long amountCents) {}

    public record Approval(boolean approved, String by) {}

    public record Label(String sku, String tracking) {}

    public record Receipt(String orderId, String chargeId, String status, List<Label> labels) {}

    /** The outside world the workflow talks to (a payment provider, a carrier). */
    public interface Payments {
        Charge charge(Order order, String idempotencyKey);

        void refund(Charge charge, String idempotencyKey);
    }

    public interface Shipping {
        Label label(Item item, String idempotencyKey);
    }

    public static final String NAME = "order.fulfil.v1";

    private OrderFulfilment() {}

    // tag::workflow[]
    public static Workflow<Order, Receipt> workflow(Payments payments, Shipping shipping, Duration coolOff) {
        StepOptions chargeRetry = StepOptions.retry(RetryPolicy.fixed(5, Duration.ofMillis(100)));
        return Workflow.define(NAME, Order.class, (ctx, order) -> {
            Charge charge = ctx.step("charge", chargeRetry, () -> payments.charge(order, ctx.idempotencyKey()));
            ctx.sleep("cool-off", coolOff); // durable timer
            Optional<Approval> ok = ctx.awaitSignal("approval", Approval.class, Duration.ofMinutes(5));
            if (ok.isEmpty() || !ok.get().approved()) {
                ctx.step("refund", () -> {
                    payments.refund(charge, ctx.idempotencyKey());
                    return charge.id();
                });
                return new Receipt(order.id(), charge.id(), "refunded", List.of());
            }
            List<Label> labels = ctx.parallel(
                    "labels",
                    order.items(),
                    (branch, item) -> branch.step("label", () -> shipping.label(item, branch.idempotencyKey())));
            return new Receipt(order.id(), charge.id(), "shipped", labels);
        });
    }
    // end::workflow[]
}
