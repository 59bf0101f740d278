/**
 * The World SPI: what a world implements to keep runs and deliver their work, in small facets
 * ({@link io.worldflow.spi.EventLog}, {@link io.worldflow.spi.TaskQueue}, {@link io.worldflow.spi.Signals},
 * {@link io.worldflow.spi.RunQueries}, {@link io.worldflow.spi.WorkerAccess}), found through
 * {@link io.worldflow.spi.WorldProvider} by name. A world sees this package and the rest of the API, nothing of the
 * runtime; the conformance kit ({@code world-tck}) proves a world against it.
 */
package io.worldflow.spi;
