/**
 * The engine: {@link io.worldflow.runtime.Worldflow} builds a client and a worker over the world named by
 * configuration ({@link io.worldflow.runtime.WorldflowConfig}), replays runs against their logs, and signs signal
 * URLs. What is not in this package's public types lives in {@code io.worldflow.runtime.internal} and is not API.
 */
package io.worldflow.runtime;
