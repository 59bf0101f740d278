package io.worldflow.examples.spring;

import org.springframework.stereotype.Service;

import java.util.concurrent.atomic.AtomicInteger;

/** An ordinary Spring service (it would call a payment provider and a carrier); the workflow's steps call it. */
@Service
public class PaymentService implements Billing {

    private final AtomicInteger charges = new AtomicInteger();

    @Override
    public String charge(Order order) {
        charges.incrementAndGet();
        return "ch-" + order.id() + "-" + order.amountCents();
    }

    @Override
    public String ship(Order order) {
        return "parcel-" + order.id();
    }

    /** How many charges were made: each completed step ran once. */
    public int charges() {
        return charges.get();
    }
}
