package io.worldflow.examples;

import io.worldflow.SearchAttributes;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class CustomerOrdersTest {

    @TempDir
    Path dir;

    @Test
    void supportFindsACustomersOrdersAndThoseWaitingForPaymentAsTheyMove() {
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", dir.resolve("orders.db").toString())
                .register(CustomerOrders.ORDER)
                .build()) {
            wf.startWorker();
            Instant before = Instant.now();
            CustomerOrders.place(wf, new CustomerOrders.Order("order-1", "42", 1999));
            CustomerOrders.place(wf, new CustomerOrders.Order("order-2", "43", 500));
            CustomerOrders.place(wf, new CustomerOrders.Order("order-3", "42", 7500));
            Instant after = Instant.now().plusSeconds(1);

            awaitAwaitingPayment(wf, 3);
            assertThat(CustomerOrders.ordersOf(wf, "42", before, after)).containsExactly("order-3", "order-1");
            assertThat(CustomerOrders.ordersOf(wf, "42", after, after.plusSeconds(60)))
                    .isEmpty();
            assertThat(CustomerOrders.ordersOf(wf, "44", before, after)).isEmpty();

            wf.signal("order-1", "paid", "ok");
            assertThat(wf.handle("order-1", String.class).result(Duration.ofSeconds(30)))
                    .isEqualTo("order-1");
            assertThat(CustomerOrders.awaitingPayment(wf)).containsExactlyInAnyOrder("order-2", "order-3");
            assertThat(wf.run("order-1").orElseThrow().searchAttributes())
                    .isEqualTo(SearchAttributes.of(CustomerOrders.CUSTOMER, "42")
                            .with(CustomerOrders.STAGE, "done")
                            .with(CustomerOrders.TOTAL, 1999L));
        }
    }

    private static void awaitAwaitingPayment(Worldflow wf, int n) {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (CustomerOrders.awaitingPayment(wf).size() < n) {
            assertThat(System.nanoTime())
                    .as("%s orders awaiting payment in time", n)
                    .isLessThan(end);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
