package io.worldflow.examples.spring;

import io.worldflow.Workflow;
import io.worldflow.annotation.WorkflowMethod;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Optional;

// tag::spring-workflow[]
/** A workflow bean: the starter registers it, and its steps call the injected {@link PaymentService}. */
@Component
public class OrderWorkflow {

    public static final String NAME = "order.spring.v1";

    private final Billing billing;

    public OrderWorkflow(PaymentService payments) {
        this.billing = Workflow.steps(Billing.class, payments); // calls become steps
    }

    @WorkflowMethod(NAME)
    public Receipt fulfil(Order order) {
        String chargeId = billing.charge(order);
        Optional<Boolean> approved = Workflow.awaitSignal("approval", Boolean.class, Duration.ofMinutes(10));
        if (!approved.orElse(false)) {
            return new Receipt(order.id(), chargeId, false, null);
        }
        return new Receipt(order.id(), chargeId, true, billing.ship(order));
    }
}
// end::spring-workflow[]
