package io.worldflow.examples.spring;

import io.worldflow.annotation.Retry;
import io.worldflow.annotation.Step;

// tag::spring-steps[]
/** The steps of {@link OrderWorkflow}: each call is recorded, and retried as its annotation says. */
public interface Billing {

    @Step(retry = @Retry(maxAttempts = 5, initialDelayMillis = 200))
    String charge(Order order);

    @Step
    String ship(Order order);
}
// end::spring-steps[]
