package io.worldflow.examples;

import io.worldflow.ChildOptions;
import io.worldflow.ChildWorkflowFailedException;
import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An order split into one child run per warehouse: each child picks and ships its part with its own retries, on a
 * queue of its own if need be, and the parent collects what each shipped or why it could not.
 */
public final class SplitOrder {

    public record Line(String sku, int qty, String warehouse) {}

    public record Part(String orderId, String warehouse, List<Line> lines) {}

    public record Order(String id, List<Line> lines) {}

    public record Shipment(String warehouse, String tracking) {}

    /** What the parent gathers: a tracking number or a reason per warehouse. */
    public record Outcome(String orderId, Map<String, String> byWarehouse) {}

    private SplitOrder() {}

    // tag::child[]
    public static final Workflow<Part, Shipment> SHIP_PART =
            Workflow.define("order.ship-part", Part.class, Shipment.class, (ctx, part) -> {
                if (part.lines().stream().anyMatch(l -> l.qty() <= 0)) {
                    throw new IllegalArgumentException("nothing to pick in " + part.warehouse());
                }
                ctx.step("pick", () -> part.lines().size());
                String tracking = ctx.step("ship", () -> part.warehouse() + "-" + part.orderId());
                return new Shipment(part.warehouse(), tracking);
            });

    public static final Workflow<Order, Outcome> SPLIT =
            Workflow.define("order.split", Order.class, Outcome.class, (ctx, order) -> {
                Map<String, List<Line>> parts = new TreeMap<>();
                order.lines()
                        .forEach(l -> parts.computeIfAbsent(l.warehouse(), w -> new ArrayList<>())
                                .add(l));
                List<String> warehouses = List.copyOf(parts.keySet());
                List<String> shipped = ctx.parallel("warehouses", warehouses, (branch, warehouse) -> {
                    Part part = new Part(order.id(), warehouse, parts.get(warehouse));
                    try {
                        // a run of its own (id "<this run>/warehouses/<i>/ship"), with its own retries and time limit
                        ChildOptions options = ChildOptions.defaults().withTimeout(Duration.ofDays(2));
                        return branch.child("ship", SHIP_PART, part, options).tracking();
                    } catch (ChildWorkflowFailedException e) {
                        return "not shipped: " + e.error().message();
                    }
                });
                Map<String, String> outcome = new TreeMap<>();
                for (int i = 0; i < warehouses.size(); i++) {
                    outcome.put(warehouses.get(i), shipped.get(i));
                }
                return new Outcome(order.id(), outcome);
            });
    // end::child[]

    /** Runs one split order on the local world and prints what each warehouse did. */
    public static void main(String[] args) {
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "split-order.db")
                .register(SPLIT)
                .register(SHIP_PART)
                .build()) {
            wf.startWorker();
            RunHandle<Outcome> run = wf.start(
                    SPLIT,
                    new Order(
                            "o-" + System.currentTimeMillis(),
                            List.of(
                                    new Line("mug", 1, "berlin"),
                                    new Line("tea", 2, "lyon"),
                                    new Line("pot", 0, "oslo"))));
            System.out.println(run.result(Duration.ofSeconds(30)));
        }
    }
}
