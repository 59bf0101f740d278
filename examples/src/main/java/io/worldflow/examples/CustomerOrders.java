package io.worldflow.examples;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Orders that support can find by the fields they are asked about: each run carries its customer from the start and
 * its stage as it goes, so "every order of customer 42 in March" and "every order waiting for payment" are one query
 * each, answered from the world's index rather than by reading every run.
 */
public final class CustomerOrders {

    private CustomerOrders() {}

    // tag::search[]
    public static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    public static final SearchKey<String> STAGE = SearchKey.forString("stage");
    public static final SearchKey<Long> TOTAL = SearchKey.forLong("totalCents");

    public record Order(String orderId, String customer, long totalCents) {}

    public static final Workflow<Order, String> ORDER = Workflow.define("orders.place", Order.class, (ctx, o) -> {
        ctx.upsertSearchAttributes(
                SearchAttributes.of(STAGE, "awaiting-payment").with(TOTAL, o.totalCents()));
        ctx.awaitSignal("paid", String.class, Duration.ofDays(3));
        ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "shipping"));
        ctx.step("ship", () -> "shipped " + o.orderId());
        ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "done"));
        return o.orderId();
    });

    /** Starts the order with its customer as a search attribute, so that it is found from its first moment. */
    public static String place(Worldflow wf, Order order) {
        return wf.start(ORDER, order, StartOptions.id(order.orderId()).withSearchAttribute(CUSTOMER, order.customer()))
                .id();
    }

    /** Every order of {@code customer} created in [from, to), newest first, page by page. */
    public static List<String> ordersOf(Worldflow wf, String customer, Instant from, Instant to) {
        List<String> ids = new ArrayList<>();
        RunQuery query = RunQuery.all().withAttribute(CUSTOMER, customer).withCreated(from, to);
        for (String cursor = null; ; ) {
            var page = wf.runs(query.withCursor(cursor));
            page.runs().forEach(run -> ids.add(run.runId()));
            if ((cursor = page.nextCursor()) == null) {
                return ids;
            }
        }
    }

    /** The orders that wait for their payment now. */
    public static List<String> awaitingPayment(Worldflow wf) {
        return wf.runs(RunQuery.all().withAttribute(STAGE, "awaiting-payment")).runs().stream()
                .map(RunInfo::runId)
                .toList();
    }
    // end::search[]
}
