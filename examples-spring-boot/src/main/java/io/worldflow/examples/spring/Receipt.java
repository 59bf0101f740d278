package io.worldflow.examples.spring;

/** What an order's run ends with. */
public record Receipt(String orderId, String chargeId, boolean approved, String shipment) {}
