package io.worldflow.spi;

/**
 * What {@link Signals#send(String, String, io.worldflow.Payload, String)} did.
 *
 * @param id        the signal's id (the first signal's id for a duplicate)
 * @param duplicate whether the key had been used for the run before, so nothing was stored
 */
public record SignalSent(long id, boolean duplicate) {}
