/**
 * The stored form of events: {@link io.worldflow.format.EventFormat}, the one {@link io.worldflow.spi.EventCodec}
 * that the runtime gives every world, owns how events are written to a log and read back, and the version of that
 * form. What is not public here lives in {@code io.worldflow.format.internal} and is not API.
 */
package io.worldflow.format;
