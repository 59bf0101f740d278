/**
 * The benchmark harness: a driver ({@link io.worldflow.bench.BenchMain}) that runs the defined workloads against each
 * world through the client API, and the worker JVM it starts and measures ({@link io.worldflow.bench.BenchWorker}).
 */
package io.worldflow.bench;
