package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.annotation.Retry;
import io.worldflow.annotation.Step;
import io.worldflow.annotation.WorkflowMethod;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/** The annotation style: a {@link WorkflowMethod}, steps declared on an interface, the static facade. */
public final class AnnotatedOrderMain {

    // tag::annotated[]
    public record Order(String id, long amountCents) {}

    public record Invoice(String orderId, String chargeId, boolean approved) {}

    public interface Billing {
        @Step(retry = @Retry(maxAttempts = 5, initialDelayMillis = 200))
        String charge(Order order);
    }

    public static class Orders {
        private final Billing billing;

        public Orders(Billing billing) {
            this.billing = Workflow.steps(Billing.class, billing); // calls become steps
        }

        @WorkflowMethod("order.invoice.v1")
        public Invoice invoice(Order order) {
            String chargeId = billing.charge(order);
            Workflow.sleep("cool-off", Duration.ofMillis(500));
            Optional<Boolean> ok = Workflow.awaitSignal("approve", Boolean.class, Duration.ofSeconds(5));
            return new Invoice(order.id(), chargeId, ok.orElse(false));
        }
    }
    // end::annotated[]

    public static void main(String[] args) {
        Billing billing = order -> "ch_" + order.id();
        try (Worldflow wf =
                Worldflow.builder().fromConfig().register(new Orders(billing)).build()) {
            wf.startWorker();
            String id = "inv-" + UUID.randomUUID().toString().substring(0, 8);
            RunHandle<Object> run = wf.start("order.invoice.v1", new Order(id, 1_999), StartOptions.id(id));
            wf.signal(run.id(), "approve", true);
            System.out.println(run.result(Duration.ofSeconds(30)));
        }
    }
}
