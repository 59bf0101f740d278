package io.worldflow.examples.spring;

/** An order to charge and ship. */
public record Order(String id, long amountCents) {}
